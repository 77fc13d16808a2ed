import { Module } from '@nestjs/common';
import { AgentCardModule } from '../agent-card/agent-card.module';
import { HealthController } from './health.controller';
import { SkillsModule } from '../skills/skills.module';
import { RateLimitStorageModule } from '../auth/rate-limit-storage.module';

/** `GET|HEAD /health`. */
@Module({ imports: [AgentCardModule, RateLimitStorageModule, SkillsModule], controllers: [HealthController] })
export class HealthModule {}
