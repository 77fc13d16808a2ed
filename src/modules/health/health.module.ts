import { Module } from '@nestjs/common';
import { AgentCardModule } from '../agent-card/agent-card.module';
import { HealthController } from './health.controller';

/** `GET|HEAD /health`. */
@Module({ imports: [AgentCardModule], controllers: [HealthController] })
export class HealthModule {}
