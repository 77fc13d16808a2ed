import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { AgentCardModule } from '../agent-card/agent-card.module';
import { AuthModule } from '../auth/auth.module';
import { A2aCoreModule } from '../a2a-core/a2a-core.module';
import { CallContextService } from './call-context.service';
import { A2aFallbackExceptionFilter } from './a2a-fallback-exception.filter';
import { JsonRpcController } from './json-rpc/json-rpc.controller';
import { RestController } from './rest/rest.controller';
import { SendMessageFastPath } from './send-message.fast-path';
import {
  A2A_REQUEST_HANDLER,
  JSON_RPC_HANDLER,
  LEGACY_JSON_RPC_HANDLER,
} from './transport.constants';

/**
 * The A2A bindings: one controller per binding (JSON-RPC 1.0 + 0.3 at `POST /`, HTTP+JSON at the
 * root paths), their filters, the call context and the SSE writer, over one protocol core
 * (`A2A_REQUEST_HANDLER` from {@link A2aCoreModule}).
 */
@Module({
  imports: [AgentCardModule, A2aCoreModule, AuthModule],
  controllers: [JsonRpcController, RestController],
  providers: [
    CallContextService,
    SendMessageFastPath,
    { provide: APP_FILTER, useClass: A2aFallbackExceptionFilter },
    {
      provide: JSON_RPC_HANDLER,
      inject: [A2A_REQUEST_HANDLER],
      useFactory: (h: A2ARequestHandler) => new JsonRpcTransportHandler(h),
    },
    {
      provide: LEGACY_JSON_RPC_HANDLER,
      inject: [A2A_REQUEST_HANDLER],
      useFactory: (h: A2ARequestHandler) => new LegacyJsonRpcTransportHandler(h),
    },
  ],
  exports: [A2aCoreModule],
})
export class TransportModule {}
