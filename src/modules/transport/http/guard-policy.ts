import type { IncomingMessage } from 'node:http';
import { ForbiddenException, HttpException } from '@nestjs/common';
import { ContentTypeNotSupportedError } from '@a2a-js/sdk/errors';
import { isLoopbackHost } from '../../../config/a2a.config';
import type { HttpServeSettings } from '../../../config/namespaces';
import { AGENT_CARD_PATHS, ICON_PATH } from '../../agent-card/agent-card.constants';
import { A2A_MEDIA_TYPE, JSON_MEDIA_TYPE, mediaTypeOf } from '../transport.constants';
import { OVER_CONNECTION_CAP, overCapMessage } from './server-limits';

const DISCOVERY_PATHS = new Set<string>([...AGENT_CARD_PATHS, ICON_PATH, '/health']);

/** The settings the request guards read (namespaces `server`, `http`, `card`). */
export interface GuardSettings {
  /** `server.publicUrl`. */
  readonly publicUrl: string;
  readonly http: HttpServeSettings;
  /** `card.legacyV03`. */
  readonly legacyV03: boolean;
}

/** The request guards' settings, compiled once per server. */
export interface GuardPolicy {
  readonly config: GuardSettings;
  /** The public URL's origin, lower-cased. */
  readonly ownOrigin: string;
  /** The public URL's host name and every `--allowed-host`. */
  readonly hosts: ReadonlySet<string>;
  /** Every `--cors-origin`. */
  readonly origins: ReadonlySet<string>;
}

/** Compiles the settings the guards read on every request (see {@link guardVerdict}). */
export function guardPolicyOf(config: GuardSettings): GuardPolicy {
  const url = new URL(config.publicUrl);
  return {
    config,
    ownOrigin: url.origin.toLowerCase(),
    hosts: new Set([url.hostname.toLowerCase(), ...config.http.allowedHosts]),
    origins: new Set(config.http.corsOrigins),
  };
}

/**
 * What the browser-facing policy says about a request head (see {@link registerRequestGuards}),
 * the one copy of the policy for every path that serves requests (the Fastify hook and the card
 * served before routing, `serveCardsBeforeRouting`):
 * - `refusal`: refuse at once, before any response header (connection cap 503 with
 *   `overCap`, double `Host` 400, Host 421);
 * - else `allowOrigin` (the `Access-Control-Allow-Origin` to send, if any), `discovery` and
 *   `originAllowed` (for a preflight), and `lateRefusal`: a refusal that comes after the
 *   response headers and the preflight (Origin / cross-site 403, a POST's media type).
 * @param path - The request target without its query.
 */
export function guardVerdict(
  policy: GuardPolicy,
  raw: IncomingMessage,
  method: string,
  path: string,
): GuardVerdict {
  const socket = raw.socket as { [OVER_CONNECTION_CAP]?: boolean } | undefined;
  if (socket?.[OVER_CONNECTION_CAP]) {
    const max = policy.config.http.maxConnectionsPerAddress;
    return { refusal: new HttpException(overCapMessage(max), 503), overCap: true };
  }
  if (hostFieldLines(raw.rawHeaders) > 1)
    return {
      refusal: new HttpException('Malformed HTTP request: more than one Host header.', 400),
    };
  const host = String(raw.headers.host ?? '').toLowerCase();
  if (!hostAllowed(host, policy.hosts)) {
    const message = `Host "${host.slice(0, 100)}" is not served here (see --allowed-host).`;
    return { refusal: new HttpException(message, 421) };
  }
  const discovery = DISCOVERY_PATHS.has(path) || path.startsWith('/.well-known/');
  const origin =
    typeof raw.headers.origin === 'string' ? raw.headers.origin.toLowerCase() : undefined;
  const originAllowed =
    origin !== undefined &&
    (origin === policy.ownOrigin || policy.origins.has(origin) || sameHostOrigin(origin, host));
  const allowOrigin = discovery ? '*' : originAllowed ? origin : undefined;
  const readOnlyDiscovery = discovery && (method === 'GET' || method === 'HEAD');
  return {
    allowOrigin,
    discovery,
    originAllowed,
    lateRefusal:
      (readOnlyDiscovery || originAllowed ? undefined : originRefusal(origin, raw)) ??
      (method === 'POST' ? mediaTypeRefusal(raw.headers['content-type']) : undefined),
  };
}

/** See {@link guardVerdict}. */
export type GuardVerdict =
  | { readonly refusal: Error; readonly overCap?: boolean }
  | {
      readonly refusal?: undefined;
      readonly overCap?: undefined;
      readonly allowOrigin: string | undefined;
      readonly discovery: boolean;
      readonly originAllowed: boolean;
      readonly lateRefusal: Error | undefined;
    };

function originRefusal(origin: string | undefined, raw: IncomingMessage): Error | undefined {
  if (origin !== undefined)
    return new ForbiddenException(
      `Origin ${origin.slice(0, 100)} is not allowed (see --cors-origin).`,
    );
  if (raw.headers['sec-fetch-site'] === 'cross-site')
    return new ForbiddenException('Cross-site requests are not allowed (see --cors-origin).');
  return undefined;
}

function mediaTypeRefusal(contentType: string | undefined): Error | undefined {
  const media = mediaTypeOf(contentType);
  if (media === JSON_MEDIA_TYPE || media === A2A_MEDIA_TYPE) return undefined;
  const got =
    media === undefined ? 'No Content-Type' : `Unsupported Content-Type "${media.slice(0, 100)}"`;
  return new ContentTypeNotSupportedError(
    `${got}; expected ${JSON_MEDIA_TYPE} or ${A2A_MEDIA_TYPE}.`,
  );
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
