import {
  Controller,
  Delete,
  Get,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AgentCard,
  ListTaskPushNotificationConfigsResponse,
  SendMessageRequest,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { requestedA2aVersion } from '../../../common/http/a2a-version';
import { renderRestError } from '../../../common/errors/a2a-error-render';
import { CallContextService } from '../call-context.service';
import { writeSse } from '../sse-writer';
import { A2A_REQUEST_HANDLER } from '../transport.constants';
import type { ConfigType } from '@nestjs/config';
import { httpConfig } from '../../../config/namespaces';
import { sendMessageResponseText } from '../send-message-response';
import { RestExceptionFilter } from './rest-exception.filter';
import {
  integerParam,
  listTasksJson,
  listTasksRequest,
  readJsonBody,
  replyMediaType,
  sendMessageBody,
} from './rest-request';

type Query = Record<string, unknown>;

/**
 * HTTP+JSON (REST) binding, A2A 1.0, at the root path. Routes with a `:verb` suffix on a task
 * id (`/tasks/{id}:cancel`, `:subscribe`) share one `/tasks/:segment` route, because Fastify's
 * router cannot express a parameter followed by a literal colon.
 * Every reply uses the request's media type (`application/json` or `application/a2a+json`).
 * @see A2A specification §11 HTTP+JSON/REST binding.
 */
@Controller()
@UseFilters(RestExceptionFilter)
export class RestController {
  constructor(
    @Inject(A2A_REQUEST_HANDLER) private readonly handler: A2ARequestHandler,
    private readonly contexts: CallContextService,
    @Inject(httpConfig.KEY) private readonly http: ConfigType<typeof httpConfig>,
  ) {}

  /** SendMessage: `{"task": …}` or `{"message": …}`. */
  @Post('message::send')
  async send(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const ctx = this.context(req);
    const params = SendMessageRequest.fromJSON(this.messageBody(req));
    const result = await this.handler.sendMessage(params, ctx);
    reply
      .code(200)
      .header('content-type', replyMediaType(req))
      .send(sendMessageResponseText(result));
  }

  /** SendStreamingMessage: SSE of StreamResponse objects. */
  @Post('message::stream')
  async stream(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const ctx = this.context(req);
    const params = SendMessageRequest.fromJSON(this.messageBody(req));
    await this.sse(reply, this.handler.sendMessageStream(params, ctx), 'drain');
  }

  /** ListTasks with cursor paging. */
  @Get('tasks')
  async list(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query() query: Query,
  ): Promise<void> {
    const ctx = this.context(req);
    const params = listTasksRequest(query);
    const result = await this.handler.listTasks(params, ctx);
    this.json(req, reply, 200, listTasksJson(result, params.includeArtifacts === true));
  }

  /** GetTask (`/tasks/{id}`) or SubscribeToTask (`/tasks/{id}:subscribe`). */
  @Get('tasks/:segment')
  async getOrSubscribe(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('segment') segment: string,
    @Query() query: Query,
  ): Promise<void> {
    const ctx = this.context(req);
    const { id, verb } = splitSegment(segment);
    if (verb === 'subscribe') return this.subscribe(reply, id, ctx);
    if (verb !== undefined) throw new NotFoundException(`No route for GET /tasks/${segment}`);
    const historyLength =
      query.historyLength !== undefined
        ? integerParam('historyLength', query.historyLength, 0)
        : undefined;
    const task = await this.handler.getTask({ id, tenant: '', historyLength }, ctx);
    this.json(req, reply, 200, Task.toJSON(task));
  }

  /** CancelTask (`/tasks/{id}:cancel`) or SubscribeToTask (`/tasks/{id}:subscribe`). */
  @Post('tasks/:segment')
  async cancelOrSubscribe(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('segment') segment: string,
  ): Promise<void> {
    const ctx = this.context(req);
    const { id, verb } = splitSegment(segment);
    readJsonBody(req, this.http.maxJsonDepth);
    if (verb === 'subscribe') return this.subscribe(reply, id, ctx);
    if (verb !== 'cancel') throw new NotFoundException(`No route for POST /tasks/${segment}`);
    const task = await this.handler.cancelTask({ id, tenant: '', metadata: {} }, ctx);
    this.json(req, reply, 200, Task.toJSON(task));
  }

  /** GetExtendedAgentCard (UnsupportedOperation while the capability is off). */
  @Get('extendedAgentCard')
  async extendedCard(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const card = await this.handler.getAuthenticatedExtendedAgentCard(
      { tenant: '' },
      this.context(req),
    );
    this.json(req, reply, 200, AgentCard.toJSON(card));
  }

  /** Push notification configs: the SDK answers PushNotificationNotSupported while the capability is off. */
  @Post('tasks/:id/pushNotificationConfigs')
  async createPush(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ): Promise<void> {
    const ctx = this.context(req);
    const config = TaskPushNotificationConfig.fromJSON({
      ...readJsonBody(req, this.http.maxJsonDepth),
      taskId: id,
    });
    const result = await this.handler.createTaskPushNotificationConfig(config, ctx);
    this.json(req, reply, 201, TaskPushNotificationConfig.toJSON(result));
  }

  @Get('tasks/:id/pushNotificationConfigs')
  async listPush(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
  ): Promise<void> {
    const params = { taskId: id, pageSize: 0, pageToken: '', tenant: '' };
    const result = await this.handler.listTaskPushNotificationConfigs(params, this.context(req));
    this.json(req, reply, 200, ListTaskPushNotificationConfigsResponse.toJSON(result));
  }

  @Get('tasks/:id/pushNotificationConfigs/:configId')
  async getPush(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') taskId: string,
    @Param('configId') configId: string,
  ): Promise<void> {
    const result = await this.handler.getTaskPushNotificationConfig(
      { taskId, id: configId, tenant: '' },
      this.context(req),
    );
    this.json(req, reply, 200, TaskPushNotificationConfig.toJSON(result));
  }

  @Delete('tasks/:id/pushNotificationConfigs/:configId')
  async deletePush(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('id') taskId: string,
    @Param('configId') configId: string,
  ): Promise<void> {
    await this.handler.deleteTaskPushNotificationConfig(
      { taskId, id: configId, tenant: '' },
      this.context(req),
    );
    reply.code(204).send();
  }

  private messageBody(req: FastifyRequest): Record<string, unknown> {
    return sendMessageBody(req, this.http.maxJsonDepth);
  }

  private context(req: FastifyRequest): ServerCallContext {
    return this.contexts.build(req, requestedA2aVersion(req), 'HTTP+JSON');
  }

  private json(req: FastifyRequest, reply: FastifyReply, status: number, body: unknown): void {
    reply.code(status).header('content-type', replyMediaType(req)).send(JSON.stringify(body));
  }

  private subscribe(reply: FastifyReply, id: string, ctx: ServerCallContext): Promise<void> {
    return this.sse(reply, this.handler.resubscribe({ id, tenant: '' }, ctx), 'stop');
  }

  private async sse(
    reply: FastifyReply,
    stream: AsyncGenerator<StreamResponse>,
    onDisconnect: 'drain' | 'stop',
  ): Promise<void> {
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next(); // early errors become plain REST errors (filter)
    await writeSse({
      reply,
      first,
      rest: iterator,
      encode: (e) => StreamResponse.toJSON(e),
      encodeError: (err) => renderRestError(err).body,
      onDisconnect,
      keepAliveMs: this.http.sseKeepAliveMs,
    });
  }
}

/** A SendMessageRequest body, refusing parts with two content members (before decoding). */
/** `abc:cancel` → { id: 'abc', verb: 'cancel' }; `abc` → { id: 'abc' }. */
function splitSegment(segment: string): { id: string; verb?: string } {
  const i = segment.lastIndexOf(':');
  return i < 0 ? { id: segment } : { id: segment.slice(0, i), verb: segment.slice(i + 1) };
}
