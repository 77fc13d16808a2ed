import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RuntimeModule } from '../../common/runtime/runtime.module';
import { SkillRegistry } from './skill-registry.service';
import { SkillRouter } from './skill-router.service';
import { SkillRouterExecutor } from './skill-router.executor';
import { AGENT_EXECUTOR } from './skills.constants';

/**
 * The skill seam: {@link SkillRegistry} finds every provider marked `@A2aSkillProvider()` in the
 * application (the shortlist and harness modules contribute theirs; an embedder's module adds its
 * own by being imported), {@link SkillRouter} picks one per turn and the SDK `AgentExecutor` runs it.
 * This module imports no feature module.
 */
@Module({
  imports: [DiscoveryModule, RuntimeModule],
  providers: [
    SkillRegistry,
    SkillRouter,
    { provide: AGENT_EXECUTOR, useClass: SkillRouterExecutor },
  ],
  exports: [SkillRouter, AGENT_EXECUTOR],
})
export class SkillsModule {}
