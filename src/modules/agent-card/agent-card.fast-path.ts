import type { IncomingMessage, ServerResponse } from 'node:http';
import { a2aVersionOf } from '../../common/http/a2a-version';
import type { HttpObserve } from '../observability/http-observer';
import { GuardPolicy, guardVerdict } from '../transport/http/guard-policy';
import { guardReplyHeaders, versionServed } from '../transport/http/request-guards';
import type { BeforeRouting } from '../transport/http/before-routing';
import { isAgentCardPath } from './agent-card.constants';
import type { AgentCardRoutes, CardReply } from './agent-card.routes';

/** What the card served before routing needs: the guards' policy, the card, the observer. */
export interface CardFastPathDeps {
  readonly guards: GuardPolicy;
  readonly cards: AgentCardRoutes;
  readonly observe: HttpObserve;
}

/**
 * Serves a plain Agent Card GET or HEAD (a well-known card path, no query, no body) before
 * Fastify builds its request and reply, routes and runs its hooks (`serveBeforeRouting`): about
 * half the CPU of a card request went there (`docs/performance.md`). The reply is the one the
 * Fastify routes give (`AgentCardRoutes.cardReply`, with the headers of the request guards),
 * under the same policy: the request guards' {@link guardVerdict} decides, and every request it
 * refuses and every other request is left to Fastify, so refusals keep one code path. The
 * request is observed (metrics, access line) by the same observer as Fastify's.
 * @see A2A specification §8.2 (discovery); `registerRequestGuards` (the policy).
 */
export function cardBeforeRouting(deps: CardFastPathDeps): BeforeRouting {
  return (req, res) => serveCard(deps, req, res);
}

/** Answers `req` when it is a plain card GET/HEAD the guards let through; false otherwise. */
function serveCard(deps: CardFastPathDeps, req: IncomingMessage, res: ServerResponse): boolean {
  const method = req.method ?? '';
  const url = req.url ?? '';
  if ((method !== 'GET' && method !== 'HEAD') || !isAgentCardPath(url)) return false;
  const headers = req.headers;
  if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined)
    return false;
  const verdict = guardVerdict(deps.guards, req, method, url);
  if (verdict.refusal !== undefined || verdict.lateRefusal !== undefined) return false;
  const started = process.hrtime.bigint();
  const raw = headers['a2a-version'];
  const requested = a2aVersionOf(typeof raw === 'string' ? raw : undefined);
  const version = versionServed(requested, method, url, deps.guards.config.legacyV03);
  const reply = deps.cards.cardReply(
    requested,
    headers['if-none-match'],
    headers['if-modified-since'],
  );
  const observed = { method, route: url, url, headers };
  res.writeHead(reply.status, headLines(reply, version, verdict.allowOrigin));
  res.once('close', () => deps.observe(observed, res, started));
  res.end(method === 'HEAD' ? undefined : reply.body);
  return true;
}

/** Response header lines (name, value, …) per reply, version and allowed origin, built once. */
const HEAD_LINES = new WeakMap<CardReply, Map<string, string[]>>();

/**
 * The header lines of a card reply: the request guards' (`A2A-Version`, CORS), then the card
 * route's, which win where both set one (`Access-Control-Expose-Headers`), as on Fastify.
 */
function headLines(
  reply: CardReply,
  version: string | undefined,
  allowOrigin: string | undefined,
): string[] {
  let byKey = HEAD_LINES.get(reply);
  if (byKey === undefined) HEAD_LINES.set(reply, (byKey = new Map()));
  const key = `${version ?? ''} ${allowOrigin ?? ''}`;
  let lines = byKey.get(key);
  if (lines === undefined) {
    lines = Object.entries({ ...guardReplyHeaders(version, allowOrigin), ...reply.headers }).flat();
    byKey.set(key, lines);
  }
  return lines;
}
