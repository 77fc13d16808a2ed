import type { IncomingMessage, ServerResponse } from 'node:http';
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { SendMessageRequest } from '@a2a-js/sdk';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { a2aVersionOf } from '../../common/http/a2a-version';
import { renderRestError } from '../../common/errors/a2a-error-render';
import { httpConfig, serverConfig } from '../../config/namespaces';
import { CallerGate, CallerRequest } from '../auth/caller-gate';
import type { HttpObserve } from '../observability/http-observer';
import { rejectAmbiguousParts } from '../skills/content-modes';
import { CallContextService } from './call-context.service';
import {
  BeforeRouting,
  HandOver,
  bodyLength,
  observeBeforeRouting,
  readBody,
} from './http/before-routing';
import { GuardPolicy, guardVerdict } from './http/guard-policy';
import { guardReplyHeaders } from './http/request-guards';
import { readEnvelope } from './json-rpc/json-rpc-envelope';
import { JsonRpcController } from './json-rpc/json-rpc.controller';
import {
  TextReply,
  jsonRpcErrorReply,
  jsonRpcSendMessageReply,
} from './json-rpc/json-rpc-send-message';
import { assertSendRequestShape } from './request-shape';
import { replyMediaType, sendMessageBody } from './rest/rest-request';
import { RestController } from './rest/rest.controller';
import { sendMessageResponseText } from './send-message-response';
import { A2A_REQUEST_HANDLER, JSON_MEDIA_TYPE, mediaTypeOf } from './transport.constants';

/** What SendMessage served before routing needs from the app: the guards' policy, the observer. */
export interface SendMessageFastPathDeps {
  readonly guards: GuardPolicy;
  readonly observe: HttpObserve;
}

/** A request taken: its binding's route, caller and the reply's base headers. */
interface Taken {
  readonly rest: boolean;
  readonly caller: CallerRequest;
  readonly headers: Record<string, string>;
  /** Undoes the observer and the socket's mark, for a request handed over to Fastify. */
  unobserve?: () => void;
}

/** A SendMessage checked and ready to run, with the error reply of its binding. */
interface Prepared {
  run(): Promise<TextReply>;
  errorReply(err: unknown): TextReply;
}

const JSON_RPC_PATH = '/';
const REST_PATH = '/message:send';
/** The REST route's pattern as Fastify names it (metrics label, access line). */
const REST_ROUTE = '/message::send';

/**
 * A2A 1.0 `SendMessage` (JSON-RPC `POST /` and REST `POST /message:send`) served before Fastify's
 * routing, hooks and Nest's router (issue #14: that stack cost more CPU than the send itself).
 * It takes only requests it can answer exactly as the Fastify route would, and hands every other
 * one to Fastify unchanged: `A2A-Version: 1.0`, no query, a `Content-Length` within the body
 * limit, no `Transfer-Encoding` and the request guards' {@link guardVerdict} passing. It reads
 * the body, and hands the request over with it when the auth guard would not admit the caller
 * ({@link CallerGate.principalOf}, asked once the body is read, as the guard runs then) or when
 * it is not a well-formed SendMessage of its binding (bad JSON or UTF-8, another JSON-RPC method,
 * a shape the controllers refuse), so every refusal keeps one code path. Then the rate limits ({@link CallerGate.admit}; a 429 is
 * answered here, in the binding's shape) and the same reply the controllers give ({@link jsonRpcSendMessageReply};
 * the REST body from {@link sendMessageResponseText}, errors by `renderRestError`), with the
 * request guards' headers (`A2A-Version`, CORS) and the same observer (metrics, access line).
 * @see A2A specification §3.1.1 SendMessage, §9 (JSON-RPC), §11 (HTTP+JSON).
 */
@Injectable()
export class SendMessageFastPath implements BeforeApplicationShutdown {
  /** SendMessage requests answered here since start (the rest went to Fastify); for tests. */
  answered = 0;
  private readonly logger = new Logger(JsonRpcController.name);
  /** Requests taken whose body is still being read. */
  private reading = 0;
  /** Set at shutdown: no request is taken any more ({@link beforeApplicationShutdown}). */
  private draining = false;
  private drained?: () => void;

  constructor(
    @Inject(A2A_REQUEST_HANDLER) private readonly handler: A2ARequestHandler,
    private readonly contexts: CallContextService,
    private readonly gate: CallerGate,
    @Inject(httpConfig.KEY) private readonly http: ConfigType<typeof httpConfig>,
    @Inject(serverConfig.KEY) private readonly server: ConfigType<typeof serverConfig>,
  ) {}

  /**
   * Stops taking requests, and waits until every request taken has its body read (and is then
   * answered here or handed to Fastify): one handed over once Fastify closes would get its bare
   * 503 instead of the route's reply. Nest closes the HTTP server after this hook; a body that
   * never comes is cut by the request timeout.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.draining = true;
    if (this.reading > 0) await new Promise<void>((resolve) => (this.drained = resolve));
  }

  /** The handler to put before Fastify's routing (`serveBeforeRouting`). */
  beforeRouting(deps: SendMessageFastPathDeps): BeforeRouting {
    return (req, res, handOver) => this.take(deps, req, res, handOver);
  }

  /** Takes `req` when it qualifies (see the class), reading its body; false otherwise. */
  private take(
    deps: SendMessageFastPathDeps,
    req: IncomingMessage,
    res: ServerResponse,
    handOver: HandOver,
  ): boolean {
    const taken = this.qualified(deps, req);
    if (taken === undefined) return false;
    const { rest, caller } = taken;
    taken.unobserve = observeBeforeRouting(deps.observe, req, res, rest ? 'HTTP+JSON' : 'JSONRPC', {
      method: 'POST',
      route: rest ? REST_ROUTE : JSON_RPC_PATH,
      url: req.url ?? '',
      headers: req.headers,
      /** Set once the body is read, as the auth guard sets `request.principal`. */
      get principal() {
        return caller.principal;
      },
    });
    this.reading += 1;
    readBody(
      req,
      (body) => void this.serve(taken, body, res, handOver).catch(() => res.destroy()),
      () => this.readEnded(),
    );
    return true;
  }

  /** The request taken, when its head qualifies (see the class); undefined otherwise. */
  private qualified(deps: SendMessageFastPathDeps, req: IncomingMessage): Taken | undefined {
    const url = req.url;
    const rest = url === REST_PATH;
    if (this.draining || req.method !== 'POST' || (url !== JSON_RPC_PATH && !rest)) return;
    const headers = req.headers;
    const version = headers['a2a-version'];
    if (typeof version !== 'string' || a2aVersionOf(version) !== '1.0') return;
    const length = bodyLength(headers['content-length']);
    if (length === undefined || length > this.server.maxBodyBytes) return;
    if (headers['transfer-encoding'] !== undefined) return;
    if (!rest && mediaTypeOf(headers['content-type']) !== JSON_MEDIA_TYPE) return;
    const verdict = guardVerdict(deps.guards, req, 'POST', url);
    if (verdict.refusal !== undefined || verdict.lateRefusal !== undefined) return;
    const ip = this.gate.addressOf(req);
    if (ip === undefined) return;
    const caller: CallerRequest = { headers, ip };
    return { rest, caller, headers: guardReplyHeaders('1.0', verdict.allowOrigin) };
  }

  private readEnded(): void {
    this.reading -= 1;
    if (this.reading === 0) this.drained?.();
  }

  private async serve(
    taken: Taken,
    body: Buffer,
    res: ServerResponse,
    handOver: HandOver,
  ): Promise<void> {
    const text = body.toString('utf8');
    // Not UTF-8: Fastify's parser counts the decoded bytes and refuses the Content-Length.
    const utf8 = Buffer.byteLength(text) === body.length;
    // The auth guard runs once the body is read: its verdict then counts (a failed-auth budget
    // used up, a key expired meanwhile), and a request that ends before has no caller.
    if (utf8) taken.caller.principal = this.gate.principalOf(taken.caller);
    const prepared = taken.caller.principal !== undefined ? this.prepare(taken, text) : undefined;
    if (prepared === undefined) {
      taken.unobserve?.(); // Fastify's hooks observe and mark it
      return handOver(body);
    }
    const [controller, handler] = taken.rest
      ? [RestController, RestController.prototype.send]
      : [JsonRpcController, JsonRpcController.prototype.handle];
    let reply: TextReply;
    try {
      await this.gate.admit(taken.caller, controller, handler);
      reply = await prepared.run();
    } catch (err) {
      reply = prepared.errorReply(err);
    }
    const headers = { ...taken.headers };
    for (const [name, value] of Object.entries(reply.headers)) headers[name.toLowerCase()] = value;
    headers['content-length'] = String(Buffer.byteLength(reply.body));
    res.writeHead(reply.status, headers);
    res.end(reply.body);
    this.answered += 1;
  }

  /** The SendMessage of `text` checked as its controller checks it; undefined: hand it over. */
  private prepare(taken: Taken, text: string): Prepared | undefined {
    try {
      return taken.rest ? this.prepareRest(taken, text) : this.prepareJsonRpc(taken, text);
    } catch {
      return undefined;
    }
  }

  private prepareJsonRpc(taken: Taken, text: string): Prepared | undefined {
    const envelope = readEnvelope(text, this.http.maxJsonDepth);
    if (!envelope.ok || envelope.request.method !== 'SendMessage') return undefined;
    const { id = null, params } = envelope.request;
    assertSendRequestShape(params);
    const context = this.contexts.build(taken.caller, '1.0', 'JSONRPC');
    rejectAmbiguousParts((params as { message?: unknown } | undefined)?.message);
    return {
      run: () => jsonRpcSendMessageReply(this.handler, id, params, context, this.logger),
      errorReply: (err) => jsonRpcErrorReply(id, err, false),
    };
  }

  private prepareRest(taken: Taken, text: string): Prepared {
    const request = { headers: taken.caller.headers, body: text };
    const context = this.contexts.build(taken.caller, '1.0', 'HTTP+JSON');
    const params = SendMessageRequest.fromJSON(sendMessageBody(request, this.http.maxJsonDepth));
    const contentType = `${replyMediaType(request)}; charset=utf-8`;
    const errorReply = (err: unknown): TextReply => {
      const rendered = renderRestError(err);
      const headers = { ...rendered.headers, 'content-type': contentType };
      return { status: rendered.status, headers, body: JSON.stringify(rendered.body) };
    };
    return {
      run: async () => {
        try {
          const result = await this.handler.sendMessage(params, context);
          const body = sendMessageResponseText(result);
          return { status: 200, headers: { 'content-type': contentType }, body };
        } catch (err) {
          return errorReply(err);
        }
      },
      errorReply,
    };
  }
}
