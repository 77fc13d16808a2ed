import { Module } from '@nestjs/common';
import { RepoFactsSkill } from './repo-facts.skill';

/**
 * A team's feature module: it owns one skill and contributes it through `@A2aSkillProvider()`.
 * Import it next to `AppModule.forRoot()`, or pass it to `createA2AServer({ skills: [RepoFactsModule] })`.
 */
@Module({ providers: [RepoFactsSkill] })
export class RepoFactsModule {}
