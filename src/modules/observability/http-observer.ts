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

/**
 * One access-log line and the request metrics per request, when its response ends (streams and
 * hijacked replies included; `aborted` when the client left first). Fields: method, route
 * (the route pattern, or the redacted path when none matched), binding, status, durationMs,
 * tier and keyId of the caller. Never a header, body or credential.
 */
export function registerHttpObserver(
  fastify: FastifyInstance,
  metrics: MetricsService,
  logger: ProcessLogger,
): void {
  const access = logger.child({ context: 'access' });
  const logging = access.isLevelEnabled('info');
  fastify.addHook('onRequest', (request, reply, done) => {
    const started = process.hrtime.bigint();
    reply.raw.once('close', () => observe(request, reply.raw, started));
    done();
  });

  function observe(
    request: FastifyRequest,
    res: NodeJS.WritableStream & { statusCode: number; writableFinished: boolean },
    started: bigint,
  ): void {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = request.routeOptions.url;
    const binding = bindingOf(request.method, route, request.headers['a2a-version']);
    const status = res.statusCode;
    metrics.requests.labels(binding, request.method, String(status)).inc();
    metrics.latency.labels(binding, request.method).observe(seconds);
    if (status === 401 || status === 403)
      metrics.authRejections.labels(binding, String(status)).inc();
    else if (status === 429) metrics.rateLimitRejections.labels(binding).inc();
    if (!logging) return;
    const principal = request.principal;
    const shown = route ?? redactUrl(request.url.split('?')[0]);
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
  }
}
