import { Module } from '@nestjs/common';
import { SkillsModule } from '../skills/skills.module';
import { RuntimeModule } from '../../common/runtime/runtime.module';
import { AgentCardController } from './agent-card.controller';
import { AgentCardService } from './agent-card.service';
import { AgentCardRoutes } from './agent-card.routes';

/** Discovery: builds the Agent Card once and serves it at the well-known paths. */
@Module({
  imports: [SkillsModule, RuntimeModule],
  controllers: [AgentCardController],
  providers: [AgentCardService, AgentCardRoutes],
  exports: [AgentCardService],
})
export class AgentCardModule {}
