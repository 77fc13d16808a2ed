import { Module } from '@nestjs/common';
import { AgentCardModule } from '../agent-card/agent-card.module';
import { HealthController } from './health.controller';
import { SkillsModule } from '../skills/skills.module';
import { RateLimitStorageModule } from '../auth/rate-limit-storage.module';
import { HarnessA2aModule } from '../harness/a2a/harness-a2a.module';
import { ConfiguredTasksModule } from '../tasks/configured-tasks.module';

/** `GET|HEAD /health`. */
@Module({
  imports: [
    AgentCardModule,
    RateLimitStorageModule,
    HarnessA2aModule,
    SkillsModule,
    ConfiguredTasksModule,
  ],
  controllers: [HealthController],
})
export class HealthModule {}
