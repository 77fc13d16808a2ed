import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import { requestedA2aVersion } from '../../../common/http/a2a-version';
import { isAgentCardPath } from '../../agent-card/agent-card.constants';
import { isLegacyRequest } from '../json-rpc/json-rpc-exception.filter';
import { BindingSocket, SOCKET_BINDING, bindingOf, sendBindingError } from './binding-errors';
import { GuardPolicy, GuardSettings, guardPolicyOf, guardVerdict } from './guard-policy';

export type { GuardSettings } from './guard-policy';

const RPC_ALLOW_HEADERS =
  'Authorization, Content-Type, A2A-Version, A2A-Extensions, X-A2A-Extensions, Last-Event-ID';
/** `Access-Control-Expose-Headers` of a reply to an allowed origin. */
export const EXPOSE_HEADERS =
  'A2A-Version, A2A-Extensions, X-A2A-Extensions, WWW-Authenticate, Retry-After';

/**
 * The browser-facing policy, checked in a Fastify `onRequest` hook for every request, before
 * routing to Nest, guards, body parsing or any handler (so a refused request costs no body read
 * and reaches no code of ours; a Nest guard would run after the body is read and never for the
 * plain Fastify card routes or unknown routes). In order:
 * 1. `Host` must be a loopback name, the public URL's host or an `--allowed-host` (DNS
 *    rebinding), else **421**; more than one `Host` line is a **400**;
 * 2. `OPTIONS` is a CORS preflight: **204**; discovery paths allow any origin, RPC routes only
 *    the server's own origin and `--cors-origin` origins (others get no `Access-Control-*`);
 * 3. an `Origin` that is not the server's own nor a `--cors-origin`, or `Sec-Fetch-Site:
 *    cross-site` without an allowed `Origin`, is refused with **403** (discovery GET/HEAD
 *    excepted: `Access-Control-Allow-Origin: *`);
 * 4. a `POST` must declare `application/json` or `application/a2a+json` (a browser cannot send
 *    those without a preflight): else ContentTypeNotSupported (-32005 / REST 400).
 * Replies carry the negotiated `A2A-Version` and, for an allowed origin, its CORS headers.
 * Every refusal is in the binding's A2A error shape.
 * @returns The compiled policy (for the card served before routing, `serveCardsBeforeRouting`).
 * @see A2A specification 1.0.1 §3.6 (versions), §5.4 (errors); Fetch standard (CORS,
 *   Sec-Fetch-Site); RFC 9110 §15.5.20 (421 Misdirected Request).
 */
export function registerRequestGuards(
  fastify: FastifyInstance,
  config: GuardSettings,
): GuardPolicy {
  const policy = guardPolicyOf(config);
  fastify.addHook('onResponse', (request, _reply, done) => {
    const socket = request.raw.socket as BindingSocket | undefined;
    if (socket) socket[SOCKET_BINDING] = undefined;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as BindingSocket | undefined;
    if (socket) socket[SOCKET_BINDING] = bindingOf(request.method, request.url);
    const path = request.url.split('?', 1)[0];
    const verdict = guardVerdict(policy, request.raw, request.method, path);
    if (verdict.refusal !== undefined) {
      if (verdict.overCap) reply.header('connection', 'close').header('retry-after', '1');
      return refuse(request, reply, verdict.refusal, config);
    }
    setResponseHeaders(request, reply, config, verdict.allowOrigin);
    if (request.method === 'OPTIONS')
      return preflight(reply, verdict.discovery, verdict.discovery || verdict.originAllowed);
    if (verdict.lateRefusal !== undefined)
      return refuse(request, reply, verdict.lateRefusal, config);
    done();
  });
  return policy;
}

function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  err: unknown,
  config: GuardSettings,
): void {
  const legacy = isLegacyRequest(requestedA2aVersion(request), config.legacyV03);
  sendBindingError(request, reply, err, legacy);
}

function preflight(reply: FastifyReply, discovery: boolean, allowed: boolean): void {
  if (allowed) {
    reply.headers({
      'access-control-allow-methods': discovery
        ? 'GET, HEAD, OPTIONS'
        : 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers': discovery
        ? 'A2A-Version, If-None-Match, If-Modified-Since'
        : RPC_ALLOW_HEADERS,
      'access-control-max-age': discovery ? '86400' : '600',
    });
  }
  reply.code(204).send();
}

/**
 * Headers every reply of this request gets, set on the raw response so that hijacked replies
 * (SSE streams) carry them too: the negotiated `A2A-Version`, and CORS for an allowed origin.
 */
function setResponseHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  config: GuardSettings,
  allowOrigin: string | undefined,
): void {
  const headers = guardReplyHeaders(negotiatedVersion(request, config.legacyV03), allowOrigin);
  for (const name in headers) reply.raw.setHeader(name, headers[name]);
}

/**
 * The headers the request guards give a reply: the served `A2A-Version` (if any) and, for an
 * allowed origin, `Access-Control-Allow-Origin`, `-Expose-Headers` and `Vary: Origin` (not for
 * the `*` of discovery). For Fastify's replies and those served before routing alike.
 * @see Fetch standard (CORS protocol); A2A specification §3.6.
 */
export function guardReplyHeaders(
  version: string | undefined,
  allowOrigin: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (version !== undefined) headers[A2A_VERSION_HEADER] = version;
  if (allowOrigin === undefined) return headers;
  headers['access-control-allow-origin'] = allowOrigin;
  headers['access-control-expose-headers'] = EXPOSE_HEADERS;
  if (allowOrigin !== '*') headers.vary = 'Origin';
  return headers;
}

/**
 * The protocol version this request is served with: `1.0` when asked for; `0.3` for a
 * header-less (or 0.3) JSON-RPC call or card fetch while the 0.3 interface is on; none when the
 * request asks for a version the route does not serve (its reply is VersionNotSupported).
 * @see A2A specification §3.6.2 (an absent version means 0.3).
 */
export function negotiatedVersion(request: FastifyRequest, legacyV03: boolean): string | undefined {
  // The card route the router matched, however the target spelled it (`/%2ewell-known/…`).
  const route = request.routeOptions.url;
  const target = route !== undefined && isAgentCardPath(route) ? route : request.url;
  return versionServed(requestedA2aVersion(request), request.method, target, legacyV03);
}

/**
 * {@link negotiatedVersion} from the version a request asks for (`requestedA2aVersion`).
 * @param url - The request target (its query is ignored).
 */
export function versionServed(
  requested: string | undefined,
  method: string,
  url: string,
  legacyV03: boolean,
): string | undefined {
  if (requested === '1.0') return '1.0';
  const card = isAgentCardPath(url.split('?', 1)[0]);
  if (card && requested === undefined && !legacyV03) return '1.0'; // the strict card
  const legacyRoute = card || bindingOf(method, url) === 'JSONRPC';
  return legacyRoute && isLegacyRequest(requested, legacyV03) ? '0.3' : undefined;
}
