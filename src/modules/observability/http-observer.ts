import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { redactUrl } from '../../common/http/redact-url';
import type { MetricsService } from './metrics.service';
import type { ProcessLogger } from './process-logger';

/** Which A2A binding (or plain route) a request reached; the `binding` label and log field. */
export type RequestBinding =
  'jsonrpc' | 'jsonrpc-0.3' | 'rest' | 'card' | 'health' | 'metrics' | 'root' | 'other';

const PLAIN_ROUTES: Record<string, RequestBinding> = {
  '/.well-known/agent-card.json': 'card',
  '/.well-known/agent.json': 'card',
  '/icon.svg': 'card',
  '/health': 'health',
  '/metrics': 'metrics',
};

/**
 * The binding of a request from its matched route: `POST /` is JSON-RPC (1.0 with an
 * `A2A-Version: 1.0` header, else 0.3), `GET /` the root page, other matched routes REST.
 * Unmatched paths are `other` (never the raw path: labels stay bounded).
 */
export function bindingOf(
  method: string,
  route: string | undefined,
  version: unknown,
): RequestBinding {
  if (route === undefined) return 'other';
  if (route === '/') {
    if (method !== 'POST') return 'root';
    return typeof version === 'string' && version.trim().startsWith('1.')
      ? 'jsonrpc'
      : 'jsonrpc-0.3';
  }
  return PLAIN_ROUTES[route] ?? 'rest';
}

/** Records one finished request (see {@link httpObserver}). */
export type HttpObserve = (
  request: ObservedRequest,
  res: NodeJS.WritableStream & { statusCode: number; writableFinished: boolean },
  started: bigint,
) => void;

/** What the observer reads of a request once its response has ended. */
export interface ObservedRequest {
  readonly method: string;
  /** The matched route pattern; undefined when none matched. */
  readonly route: string | undefined;
  /** The raw request target (redacted before it is logged). */
  readonly url: string;
  readonly headers: { readonly [name: string]: unknown };
  readonly principal?: { readonly tier?: string; readonly keyId?: string };
}

/** When requests handed to Fastify by a handler before routing began (see {@link observeFrom}). */
const STARTED_BEFORE_ROUTING = new WeakMap<IncomingMessage, bigint>();

/**
 * Times `req`, which a handler before routing read (its body) and then handed to Fastify, from
 * `started` (its head) instead of from Fastify's `onRequest`, as the route would have timed it.
 */
export function observeFrom(req: IncomingMessage, started: bigint): void {
  STARTED_BEFORE_ROUTING.set(req, started);
}

/**
 * Registers the {@link httpObserver} of `metrics` and `logger` on every Fastify request, when its
 * response ends (streams and hijacked replies included; `aborted` when the client left first).
 * @returns The observer, for requests served before Fastify's routing (the Agent Card).
 */
export function registerHttpObserver(
  fastify: FastifyInstance,
  metrics: MetricsService,
  logger: ProcessLogger,
): HttpObserve {
  const observe = httpObserver(metrics, logger);
  fastify.addHook('onRequest', (request, reply, done) => {
    const started = STARTED_BEFORE_ROUTING.get(request.raw) ?? process.hrtime.bigint();
    STARTED_BEFORE_ROUTING.delete(request.raw);
    reply.raw.once('close', () => observe(fastifyObserved(request), reply.raw, started));
    done();
  });
  return observe;
}

function fastifyObserved(request: FastifyRequest): ObservedRequest {
  return {
    method: request.method,
    route: request.routeOptions.url,
    url: request.url,
    headers: request.headers,
    principal: request.principal,
  };
}

/**
 * One access-log line and the request metrics per request. Fields: method, route (the route
 * pattern, a literal colon shown as `:` as in `/message:send`, or the redacted path when none
 * matched), binding, status, durationMs, tier and keyId of the caller. Never a header, body or credential. The metric children of each label set are
 * looked up once (prom-client's `labels()` validates and hashes its labels on every call).
 */
export function httpObserver(metrics: MetricsService, logger: ProcessLogger): HttpObserve {
  const access = logger.child({ context: 'access' });
  const logging = access.isLevelEnabled('info');
  const children = new Map<string, RequestMetrics>();
  const childrenOf = (binding: RequestBinding, method: string, status: number): RequestMetrics => {
    const key = `${binding} ${method} ${status}`;
    let child = children.get(key);
    if (child === undefined) {
      child = {
        requests: metrics.requests.labels(binding, method, String(status)),
        latency: metrics.latency.labels(binding, method),
      };
      children.set(key, child);
    }
    return child;
  };
  return (request, res, started) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = request.route;
    const binding = bindingOf(request.method, route, request.headers['a2a-version']);
    const status = res.statusCode;
    const child = childrenOf(binding, request.method, status);
    child.requests.inc();
    child.latency.observe(seconds);
    if (status === 401 || status === 403)
      metrics.authRejections.labels(binding, String(status)).inc();
    else if (status === 429) metrics.rateLimitRejections.labels(binding).inc();
    if (!logging) return;
    const principal = request.principal;
    // Fastify spells a literal colon `::` in a pattern (`/message::send`); the line shows the path's own.
    const shown = route?.replaceAll('::', ':') ?? redactUrl(request.url.split('?')[0]);
    access.info(
      {
        method: request.method,
        route: shown,
        binding,
        status,
        durationMs: Math.round(seconds * 1e6) / 1e3,
        tier: principal?.tier ?? 'anonymous',
        ...(principal?.keyId ? { keyId: principal.keyId } : {}),
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      `${request.method} ${shown} ${status}`,
    );
  };
}

interface RequestMetrics {
  readonly requests: { inc(): void };
  readonly latency: { observe(value: number): void };
}
