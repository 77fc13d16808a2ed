import { Module } from '@nestjs/common';
import { AgentCardModule } from '../agent-card/agent-card.module';
import { HealthController } from './health.controller';
import { RateLimitStorageModule } from '../auth/rate-limit-storage.module';
import { ConfiguredTasksModule } from '../tasks/configured-tasks.module';

/** `GET|HEAD /health`. */
@Module({ imports: [AgentCardModule, RateLimitStorageModule, ConfiguredTasksModule], controllers: [HealthController] })
export class HealthModule {}
