import type { TestingModuleBuilder } from '@nestjs/testing';
import { Clock, IdGenerator } from '../../src/common/runtime/clock';
import { SkillRouter } from '../../src/modules/skills/skill-router.service';
import { SkillRouterExecutor } from '../../src/modules/skills/skill-router.executor';
import { AGENT_EXECUTOR } from '../../src/modules/skills/skills.constants';
import { SlowExecutor } from '../fixtures/slow-executor';

/** Replaces the agent executor with {@link SlowExecutor} wrapped around the real one. */
export function withSlowExecutor(builder: TestingModuleBuilder): TestingModuleBuilder {
  return builder.overrideProvider(AGENT_EXECUTOR).useFactory({
    factory: (router: SkillRouter, clock: Clock, ids: IdGenerator) =>
      new SlowExecutor(new SkillRouterExecutor(router, clock, ids)),
    inject: [SkillRouter, Clock, IdGenerator],
  });
}
