import { Controller, HttpCode, Inject, Logger, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ContentTypeNotSupportedError, A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import type { ConfigType } from '@nestjs/config';
import { cardConfig, httpConfig } from '../../../config/namespaces';
import { requestedA2aVersion } from '../../../common/http/a2a-version';
import { renderJsonRpcError } from '../../../common/errors/a2a-error-render';
import { CallContextService } from '../call-context.service';
import { takeSkillAccessRefusal } from '../../skills/skill-access';
import { rejectAmbiguousParts } from '../../skills/content-modes';
import { writeSse, writeSseError } from '../sse-writer';
import {
  A2A_REQUEST_HANDLER,
  JSON_MEDIA_TYPE,
  JSON_RPC_HANDLER,
  LEGACY_JSON_RPC_HANDLER,
  mediaTypeOf,
} from '../transport.constants';
import { JsonRpcExceptionFilter, isLegacyRequest } from './json-rpc-exception.filter';
import { JsonRpcId, readEnvelope } from './json-rpc-envelope';
import {
  JsonRpcEnvelope,
  TextReply,
  extensionHeaders,
  jsonRpcEnvelopeReply,
  jsonRpcErrorReply,
  jsonRpcSendMessageReply,
} from './json-rpc-send-message';
import {
  LEGACY_MESSAGE_METHODS,
  LEGACY_TASK_METHODS,
  MESSAGE_METHODS,
  TASK_METHODS,
  assertLegacySendRequestShape,
  assertSendRequestShape,
  assertTaskRequestShape,
} from '../request-shape';

const LEGACY_RESUBSCRIBE = 'tasks/resubscribe';
/** 0.3 streaming methods: every answer, errors included, is SSE with plain `data:` frames. */
const LEGACY_STREAM_METHODS = new Set(['message/stream', LEGACY_RESUBSCRIBE]);
const SEND_METHODS = new Set(['SendMessage', 'SendStreamingMessage']);
const STREAM_STOP_METHODS = new Set(['SubscribeToTask', LEGACY_RESUBSCRIBE]);

/**
 * JSON-RPC binding at `POST /`: A2A 1.0 (`A2A-Version: 1.0`) and, without the header, A2A 0.3
 * method names (when legacyV03 is on). Protocol errors answer HTTP 200 with an error envelope;
 * only internal errors (-32603) answer 500. Streams answer with SSE after the first event.
 * @see A2A specification §9 JSON-RPC binding; JSON-RPC 2.0; SDK `JsonRpcTransportHandler`.
 */
@Controller()
@UseFilters(JsonRpcExceptionFilter)
export class JsonRpcController {
  private readonly logger = new Logger(JsonRpcController.name);
  constructor(
    @Inject(A2A_REQUEST_HANDLER) private readonly handler: A2ARequestHandler,
    @Inject(JSON_RPC_HANDLER) private readonly v1: JsonRpcTransportHandler,
    @Inject(LEGACY_JSON_RPC_HANDLER) private readonly v03: LegacyJsonRpcTransportHandler,
    private readonly contexts: CallContextService,
    @Inject(httpConfig.KEY) private readonly http: ConfigType<typeof httpConfig>,
    @Inject(cardConfig.KEY) private readonly card: ConfigType<typeof cardConfig>,
  ) {}

  /** Handles one JSON-RPC request (no batches). */
  @Post()
  @HttpCode(200)
  async handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const version = requestedA2aVersion(request);
    const legacy = isLegacyRequest(version, this.card.legacyV03);
    const media = mediaTypeOf(request.headers['content-type']);
    if (media !== undefined && media !== JSON_MEDIA_TYPE) {
      const err = new ContentTypeNotSupportedError(
        `Unsupported Content-Type "${media}"; expected ${JSON_MEDIA_TYPE}.`,
      );
      return this.sendError(reply, null, err, legacy);
    }
    const envelope = readEnvelope(request.body ?? '', this.http.maxJsonDepth);
    if (!envelope.ok) {
      reply.code(200).send({ jsonrpc: '2.0', id: envelope.id, error: envelope.error });
      return;
    }
    const { id = null, method } = envelope.request;
    let context: ServerCallContext;
    try {
      const params: unknown = envelope.request.params;
      if ((legacy ? LEGACY_TASK_METHODS : TASK_METHODS).has(method)) assertTaskRequestShape(params);
      if (!legacy && MESSAGE_METHODS.has(method)) assertSendRequestShape(params);
      if (legacy && LEGACY_MESSAGE_METHODS.has(method)) assertLegacySendRequestShape(params);
      context = this.contexts.build(request, version, 'JSONRPC', legacy);
      if (!legacy && SEND_METHODS.has(method)) {
        rejectAmbiguousParts(
          (envelope.request.params as { message?: unknown } | undefined)?.message,
        );
      }
    } catch (err) {
      return this.sendError(reply, id, err, legacy);
    }
    if (!legacy && method === 'SendMessage') {
      return this.sendMessage(reply, id, envelope.request.params, context);
    }
    const handler = legacy ? this.v03 : this.v1;
    const result = (await handler.handle(
      envelope.request as unknown as Record<string, unknown>,
      context,
    )) as JsonRpcEnvelope | AsyncGenerator<JsonRpcEnvelope>;
    const headers = extensionHeaders(context, legacy);
    if (isAsyncIterable(result)) {
      return this.stream(reply, result, { id, legacy, headers, method, context });
    }
    // A 401/403 skill-access refusal keeps its HTTP status (the SDK flattened it to -32603).
    const refusal = takeSkillAccessRefusal(context);
    if (refusal) return this.sendError(reply, id, refusal, legacy);
    if (legacy && LEGACY_STREAM_METHODS.has(method) && result.error) {
      const internal = result.error.code === A2A_ERROR_CODE.INTERNAL_ERROR;
      const error = internal
        ? { code: result.error.code, message: 'Internal error.' }
        : result.error;
      return writeSseError(reply, { ...result, error }, headers, 'data');
    }
    this.send(reply, result, headers);
  }

  /** A2A 1.0 SendMessage: {@link jsonRpcSendMessageReply}. */
  private async sendMessage(
    reply: FastifyReply,
    id: JsonRpcId,
    params: unknown,
    context: ServerCallContext,
  ): Promise<void> {
    writeTextReply(
      reply,
      await jsonRpcSendMessageReply(this.handler, id, params, context, this.logger),
    );
  }

  private send(
    reply: FastifyReply,
    envelope: JsonRpcEnvelope,
    headers: Record<string, string>,
  ): void {
    writeTextReply(reply, jsonRpcEnvelopeReply(envelope, headers, this.logger));
  }

  private sendError(reply: FastifyReply, id: JsonRpcId, err: unknown, legacy: boolean): void {
    writeTextReply(reply, jsonRpcErrorReply(id, err, legacy));
  }

  private async stream(
    reply: FastifyReply,
    stream: AsyncGenerator<JsonRpcEnvelope>,
    opts: {
      id: JsonRpcId;
      legacy: boolean;
      headers: Record<string, string>;
      method: string;
      context: ServerCallContext;
    },
  ): Promise<void> {
    const iterator = stream[Symbol.asyncIterator]();
    let first: IteratorResult<JsonRpcEnvelope>;
    try {
      first = await iterator.next();
    } catch (err) {
      // A 401/403 skill-access refusal keeps its HTTP status on every binding, 0.3 streams included.
      const refusal = takeSkillAccessRefusal(opts.context);
      if (refusal) return this.sendError(reply, opts.id, refusal, opts.legacy);
      if (!opts.legacy) return this.sendError(reply, opts.id, err, opts.legacy);
      return this.streamError(reply, opts, err);
    }
    const refusal = takeSkillAccessRefusal(opts.context);
    if (refusal) return this.sendError(reply, opts.id, refusal, opts.legacy);
    await writeSse({
      reply,
      first,
      rest: iterator,
      encode: (e) => e,
      encodeError: (err) => ({
        jsonrpc: '2.0',
        id: opts.id,
        error: renderJsonRpcError(err, opts.legacy).body,
      }),
      onDisconnect: STREAM_STOP_METHODS.has(opts.method) ? 'stop' : 'drain',
      headers: opts.headers,
      errorFrame: opts.legacy ? 'data' : 'event',
      keepAliveMs: this.http.sseKeepAliveMs,
    });
  }

  /**
   * 0.3 `message/stream` and `tasks/resubscribe` answer an early error as HTTP 200 SSE with one
   * plain `data:` frame holding the JSON-RPC error (0.3 clients insist on text/event-stream and
   * read only `data:` frames; `event: error` is raised untyped by a2a-python's compat client).
   */
  private streamError(
    reply: FastifyReply,
    opts: { id: JsonRpcId; legacy: boolean; headers: Record<string, string> },
    err: unknown,
  ): void {
    const error = renderJsonRpcError(err, opts.legacy).body;
    writeSseError(reply, { jsonrpc: '2.0', id: opts.id, error }, opts.headers, 'data');
  }
}

function isAsyncIterable<T>(v: unknown): v is AsyncGenerator<T> {
  return typeof (v as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] === 'function';
}

function writeTextReply(reply: FastifyReply, text: TextReply): void {
  reply.code(text.status).headers(text.headers).send(text.body);
}
