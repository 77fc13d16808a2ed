import { ForbiddenException, HttpException } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import { ContentTypeNotSupportedError } from '@a2a-js/sdk/errors';
import { isLoopbackHost } from '../../../config/a2a.config';
import type { HttpServeSettings } from '../../../config/namespaces';
import { requestedA2aVersion } from '../../../common/http/a2a-version';
import { AGENT_CARD_PATHS, ICON_PATH } from '../../agent-card/agent-card.constants';
import { isLegacyRequest } from '../json-rpc/json-rpc-exception.filter';
import { A2A_MEDIA_TYPE, JSON_MEDIA_TYPE, mediaTypeOf } from '../transport.constants';
import { BindingSocket, SOCKET_BINDING, bindingOf, sendBindingError } from './binding-errors';
import { OVER_CONNECTION_CAP, overCapMessage } from './server-limits';

const DISCOVERY_PATHS = new Set<string>([...AGENT_CARD_PATHS, ICON_PATH, '/health']);
const RPC_ALLOW_HEADERS =
  'Authorization, Content-Type, A2A-Version, A2A-Extensions, X-A2A-Extensions, Last-Event-ID';
const EXPOSE_HEADERS =
  'A2A-Version, A2A-Extensions, X-A2A-Extensions, WWW-Authenticate, Retry-After';

/** The settings the request guards read (namespaces `server`, `http`, `card`). */
export interface GuardSettings {
  /** `server.publicUrl`. */
  readonly publicUrl: string;
  readonly http: HttpServeSettings;
  /** `card.legacyV03`. */
  readonly legacyV03: boolean;
}

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
 * @see A2A specification 1.0.1 §3.6 (versions), §5.4 (errors); Fetch standard (CORS,
 *   Sec-Fetch-Site); RFC 9110 §15.5.20 (421 Misdirected Request).
 */
export function registerRequestGuards(fastify: FastifyInstance, config: GuardSettings): void {
  const ownOrigin = new URL(config.publicUrl).origin.toLowerCase();
  const hosts = new Set([
    new URL(config.publicUrl).hostname.toLowerCase(),
    ...config.http.allowedHosts,
  ]);
  const origins = new Set(config.http.corsOrigins);
  fastify.addHook('onResponse', (request, _reply, done) => {
    delete (request.raw.socket as BindingSocket | undefined)?.[SOCKET_BINDING];
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as
      (BindingSocket & { [OVER_CONNECTION_CAP]?: boolean }) | undefined;
    if (socket) socket[SOCKET_BINDING] = bindingOf(request.method, request.url);
    const path = request.url.split('?', 1)[0];
    const discovery = DISCOVERY_PATHS.has(path) || path.startsWith('/.well-known/');
    if (socket?.[OVER_CONNECTION_CAP]) {
      reply.header('connection', 'close').header('retry-after', '1');
      return refuse(
        request,
        reply,
        new HttpException(overCapMessage(config.http.maxConnectionsPerAddress), 503),
        config,
      );
    }
    if (hostFieldLines(request.raw.rawHeaders) > 1) {
      return refuse(
        request,
        reply,
        new HttpException('Malformed HTTP request: more than one Host header.', 400),
        config,
      );
    }
    const host = String(request.headers.host ?? '').toLowerCase();
    if (!hostAllowed(host, hosts)) {
      return refuse(
        request,
        reply,
        new HttpException(
          `Host "${host.slice(0, 100)}" is not served here (see --allowed-host).`,
          421,
        ),
        config,
      );
    }
    const origin =
      typeof request.headers.origin === 'string' ? request.headers.origin.toLowerCase() : undefined;
    const originAllowed =
      origin !== undefined &&
      (origin === ownOrigin || origins.has(origin) || sameHostOrigin(origin, host));
    setResponseHeaders(
      request,
      reply,
      config,
      discovery ? '*' : originAllowed ? origin : undefined,
    );
    if (request.method === 'OPTIONS')
      return preflight(reply, discovery, discovery || originAllowed);
    const readOnlyDiscovery = discovery && (request.method === 'GET' || request.method === 'HEAD');
    if (!readOnlyDiscovery && !originAllowed) {
      if (origin !== undefined) {
        return refuse(
          request,
          reply,
          new ForbiddenException(
            `Origin ${origin.slice(0, 100)} is not allowed (see --cors-origin).`,
          ),
          config,
        );
      }
      if (request.headers['sec-fetch-site'] === 'cross-site') {
        return refuse(
          request,
          reply,
          new ForbiddenException('Cross-site requests are not allowed (see --cors-origin).'),
          config,
        );
      }
    }
    if (request.method === 'POST') {
      const media = mediaTypeOf(request.headers['content-type']);
      if (media !== JSON_MEDIA_TYPE && media !== A2A_MEDIA_TYPE) {
        const got =
          media === undefined ? 'no Content-Type' : `Content-Type "${media.slice(0, 100)}"`;
        return refuse(
          request,
          reply,
          new ContentTypeNotSupportedError(
            `Unsupported ${got}; expected ${JSON_MEDIA_TYPE} or ${A2A_MEDIA_TYPE}.`,
          ),
          config,
        );
      }
    }
    done();
  });
}

/**
 * How many `Host` field lines a request has: more than one is a 400 (RFC 9112 §3.2); Node keeps
 * only the first in `headers.host`, so `Host: 127.0.0.1` + `Host: evil.example` passed the check.
 */
function hostFieldLines(rawHeaders: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === 'host') n++;
  return n;
}

/** True for a loopback name (any port), or a name in `hosts` (with or without its port). */
export function hostAllowed(host: string, hosts: ReadonlySet<string>): boolean {
  if (host === '') return false;
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
  if (!m) return false;
  const name = m[1];
  return (
    isLoopbackHost(name) ||
    hosts.has(name) ||
    hosts.has(host) ||
    hosts.has(name.replace(/^\[|\]$/g, ''))
  );
}

/** The request's own origin (`http(s)://<Host>`): a same-origin browser request, after the Host check. */
function sameHostOrigin(origin: string, host: string): boolean {
  return origin === `http://${host}` || origin === `https://${host}`;
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
  const version = negotiatedVersion(request, config.legacyV03);
  if (version !== undefined) reply.raw.setHeader(A2A_VERSION_HEADER, version);
  if (allowOrigin === undefined) return;
  reply.raw.setHeader('access-control-allow-origin', allowOrigin);
  reply.raw.setHeader('access-control-expose-headers', EXPOSE_HEADERS);
  if (allowOrigin !== '*') reply.raw.setHeader('vary', 'Origin');
}

/**
 * The protocol version this request is served with: `1.0` when asked for; `0.3` for a
 * header-less (or 0.3) JSON-RPC call or card fetch while the 0.3 interface is on; none when the
 * request asks for a version the route does not serve (its reply is VersionNotSupported).
 * @see A2A specification §3.6.2 (an absent version means 0.3).
 */
export function negotiatedVersion(request: FastifyRequest, legacyV03: boolean): string | undefined {
  const requested = requestedA2aVersion(request);
  if (requested === '1.0') return '1.0';
  const card = (AGENT_CARD_PATHS as readonly string[]).includes(request.url.split('?', 1)[0]);
  if (card && requested === undefined && !legacyV03) return '1.0'; // the strict card
  const legacyRoute = card || bindingOf(request.method, request.url) === 'JSONRPC';
  return legacyRoute && isLegacyRequest(requested, legacyV03) ? '0.3' : undefined;
}
