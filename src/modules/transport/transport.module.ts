import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import type { AgentExecutor, TaskStore } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { AgentCardModule } from '../agent-card/agent-card.module';
import { AgentCardService } from '../agent-card/agent-card.service';
import { SkillsModule } from '../skills/skills.module';
import { SkillRouter } from '../skills/skill-router.service';
import { AGENT_EXECUTOR } from '../skills/skills.constants';
import { TASK_STORE } from '../tasks/tasks.constants';
import { ConfiguredTasksModule } from '../tasks/configured-tasks.module';
import { SuperqodeRequestHandler } from './a2a-request-handler';
import { JoinedTextPartsStore } from '../tasks/joined-text-parts';
import { CallContextService } from './call-context.service';
import { A2aFallbackExceptionFilter } from './a2a-fallback-exception.filter';
import { JsonRpcController } from './json-rpc/json-rpc.controller';
import { RestController } from './rest/rest.controller';
import { A2A_REQUEST_HANDLER, JSON_RPC_HANDLER, LEGACY_JSON_RPC_HANDLER } from './transport.constants';

/**
 * The A2A bindings: one controller per binding (JSON-RPC 1.0 + 0.3 at `POST /`, HTTP+JSON at the
 * root paths) over one SDK protocol core (`DefaultRequestHandler`), which holds the in-process
 * event buses. The task store comes from TasksModule (imported by AppModule with its settings).
 */
@Module({
  imports: [AgentCardModule, SkillsModule, ConfiguredTasksModule],
  controllers: [JsonRpcController, RestController],
  providers: [
    CallContextService,
    { provide: APP_FILTER, useClass: A2aFallbackExceptionFilter },
    {
      provide: A2A_REQUEST_HANDLER,
      inject: [AgentCardService, TASK_STORE, AGENT_EXECUTOR, SkillRouter],
      useFactory: (cards: AgentCardService, store: TaskStore, executor: AgentExecutor, router: SkillRouter) =>
        new SuperqodeRequestHandler(cards.card(), new JoinedTextPartsStore(store), executor, router),
    },
    {
      provide: JSON_RPC_HANDLER,
      inject: [A2A_REQUEST_HANDLER],
      useFactory: (h: SuperqodeRequestHandler) => new JsonRpcTransportHandler(h),
    },
    {
      provide: LEGACY_JSON_RPC_HANDLER,
      inject: [A2A_REQUEST_HANDLER],
      useFactory: (h: SuperqodeRequestHandler) => new LegacyJsonRpcTransportHandler(h),
    },
  ],
  exports: [A2A_REQUEST_HANDLER],
})
export class TransportModule {}
