import { Module } from '@nestjs/common';
import { ShortlistModule } from '../shortlist/shortlist.module';
import { RuntimeModule } from '../../common/runtime/runtime.module';
import { ShortlistSkill } from '../shortlist/shortlist.skill';
import { HarnessA2aModule } from '../harness/a2a/harness-a2a.module';
import { HarnessSkill } from '../harness/a2a/harness.skill';
import { A2aSkill } from './a2a-skill';
import { SkillRouter } from './skill-router.service';
import { SkillRouterExecutor } from './skill-router.executor';
import { A2A_SKILLS, AGENT_EXECUTOR } from './skills.constants';

/**
 * The skills this agent can serve, in card order, and the SDK `AgentExecutor` that routes
 * each turn to one of them. Feature modules export their {@link A2aSkill}; this module lists them.
 */
@Module({
  imports: [ShortlistModule, HarnessA2aModule, RuntimeModule],
  providers: [
    SkillRouter,
    // Card order; the router tries the narrow shortlist phrases before the harness catch-all.
    { provide: A2A_SKILLS, inject: [ShortlistSkill, HarnessSkill], useFactory: (...skills: A2aSkill[]) => skills },
    { provide: AGENT_EXECUTOR, useClass: SkillRouterExecutor },
  ],
  exports: [SkillRouter, AGENT_EXECUTOR],
})
export class SkillsModule {}
