import { A2AClientError, A2AClientErrorCode } from './client.errors';
import { readCappedText } from './bounded-body';
import type { ClientTrace } from './client-trace';

/** Well-known path of the A2A agent card. @see A2A specification §5.3, RFC 8615. */
export const AGENT_CARD_WELL_KNOWN = '/.well-known/agent-card.json';
/** Older well-known path (A2A 0.2 and early 0.3 agents), tried after a 404. */
export const LEGACY_AGENT_CARD_WELL_KNOWN = '/.well-known/agent.json';

/** A card remembered with its validator, for `If-None-Match` revalidation. */
export interface CachedCard {
  /** The `ETag` the server sent with the card. */
  etag: string;
  /** The card JSON as received. */
  card: Record<string, unknown>;
}

/** Where discovered cards and their ETags are kept between connections. */
export interface CardCache {
  /** The cached card for a card URL, if any. */
  get(cardUrl: string): CachedCard | undefined;
  /** Remembers a card and its ETag. */
  set(cardUrl: string, entry: CachedCard): void;
}

/** An in-process {@link CardCache} (a Map keyed by card URL). */
export class MemoryCardCache implements CardCache {
  private readonly cards = new Map<string, CachedCard>();
  get(cardUrl: string): CachedCard | undefined {
    return this.cards.get(cardUrl);
  }
  set(cardUrl: string, entry: CachedCard): void {
    this.cards.set(cardUrl, entry);
  }
}

/** The result of discovery. */
export interface DiscoveredCard {
  /** URL the card was read from (after fallback). */
  cardUrl: string;
  /** The card JSON (v1.0, v0.3 or dual-shaped), unmodified. */
  card: Record<string, unknown>;
  /** `ETag` of the card, when the server sent one. */
  etag?: string;
  /** True when the server answered 304 and the cached card was reused. */
  fromCache: boolean;
}

/** How discovery reads the card. */
export interface DiscoveryOptions {
  /** Bounded, traced fetch (see `createClientFetch`); carries extra headers and mTLS, no auth. */
  fetchImpl: typeof fetch;
  /** Size bound for the card body, bytes. */
  maxBodyBytes: number;
  /** Remembered cards; a hit is revalidated with `If-None-Match`. */
  cache?: CardCache;
  /** Trace for the fallback and cache decisions. */
  trace?: ClientTrace;
}

/**
 * Card URLs to try, in order, for what a user typed: a base URL (trailing slashes ignored) gives
 * `<base>/.well-known/agent-card.json` then `<base>/.well-known/agent.json`; a pasted
 * `agent-card.json` URL keeps its `agent.json` fallback; any other `.json` URL is used as is.
 * Query and fragment are dropped; a URL without a scheme gets one ({@link withScheme}).
 * @throws {A2AClientError} `INVALID_URL` when the input is not an absolute http(s) URL.
 */
export function cardUrlCandidates(input: string): string[] {
  let url: URL;
  try {
    url = new URL(withScheme(input.trim()));
  } catch {
    throw new A2AClientError(A2AClientErrorCode.InvalidUrl, `not an absolute URL: ${input}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new A2AClientError(
      A2AClientErrorCode.InvalidUrl,
      `only http and https URLs are supported: ${url.protocol}`,
    );
  }
  url.search = '';
  url.hash = '';
  const path = url.pathname.replace(/\/+$/, '');
  for (const known of [AGENT_CARD_WELL_KNOWN, LEGACY_AGENT_CARD_WELL_KNOWN]) {
    if (path.endsWith(known)) {
      const base = url.origin + path.slice(0, -known.length);
      return known === AGENT_CARD_WELL_KNOWN
        ? [base + known, base + LEGACY_AGENT_CARD_WELL_KNOWN]
        : [base + known];
    }
  }
  if (path.endsWith('.json')) return [url.origin + path];
  return [
    url.origin + path + AGENT_CARD_WELL_KNOWN,
    url.origin + path + LEGACY_AGENT_CARD_WELL_KNOWN,
  ];
}

/**
 * Adds a scheme to a URL typed without one (`127.0.0.1:8000`, `agent.example/a2a`): `http://`
 * for loopback hosts (`localhost`, 127.0.0.0/8, `[::1]`), `https://` otherwise.
 */
export function withScheme(input: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) return input;
  const host = /^(\[[^\]]*\]|[^/:?#]*)/.exec(input)?.[1]?.toLowerCase() ?? '';
  const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  return /^[\w.[\]:-]+(?:[/?#]|$)/.test(input)
    ? `${loopback ? 'http' : 'https'}://${input}`
    : input;
}

/**
 * Reads the agent card: tries each candidate URL, moving on only after a 404; sends
 * `A2A-Version: 1.0` (a dual-version server then answers its strict v1.0 card) and, for a
 * cached card, `If-None-Match` (a 304 reuses the cached card).
 * @param input - Base URL or card URL as typed.
 * @throws {A2AClientError} `INVALID_URL`; `CARD_NOT_FOUND` (404 on every candidate);
 *   `CARD_PROTECTED` (401/403); `HTTP_ERROR` (other statuses); `CARD_INVALID` (not a JSON
 *   object); `RESPONSE_TOO_LARGE`; `TIMEOUT`; `UNREACHABLE`.
 * @see A2A specification §5 (Agent Discovery); RFC 9110 §13.1.2 (If-None-Match).
 */
export async function discoverCard(input: string, o: DiscoveryOptions): Promise<DiscoveredCard> {
  const candidates = cardUrlCandidates(input);
  for (const [i, cardUrl] of candidates.entries()) {
    const cached = o.cache?.get(cardUrl);
    const headers: Record<string, string> = { Accept: 'application/json', 'A2A-Version': '1.0' };
    if (cached) headers['If-None-Match'] = cached.etag;
    const res = await o.fetchImpl(cardUrl, { method: 'GET', headers });
    if (res.status === 304 && cached) {
      await res.body?.cancel();
      o.trace?.note('discovery', `304 Not Modified: reusing the cached card (ETag ${cached.etag})`);
      return { cardUrl, card: cached.card, etag: cached.etag, fromCache: true };
    }
    if (res.status === 404 && i < candidates.length - 1) {
      await res.body?.cancel();
      o.trace?.note('discovery', `404 at ${cardUrl}; trying ${candidates[i + 1]}`);
      continue;
    }
    return readCard(cardUrl, res, o, candidates);
  }
  /* istanbul ignore next: the loop always returns or throws on the last candidate */
  throw new A2AClientError(
    A2AClientErrorCode.CardNotFound,
    `no agent card at ${candidates.join(' or ')}`,
  );
}

async function readCard(
  cardUrl: string,
  res: Response,
  o: DiscoveryOptions,
  tried: string[],
): Promise<DiscoveredCard> {
  if (!res.ok) {
    await res.body?.cancel();
    throw statusError(cardUrl, res.status, tried);
  }
  const text = await readCappedText(res, o.maxBodyBytes).catch((err: unknown) => {
    if (err instanceof A2AClientError && err.code === A2AClientErrorCode.ResponseTooLarge)
      throw new A2AClientError(
        err.code,
        `the agent card at ${cardUrl} is larger than the ${o.maxBodyBytes}-byte limit; not read`,
        { cause: err },
      );
    throw err;
  });
  let card: unknown;
  try {
    card = JSON.parse(text);
  } catch {
    throw new A2AClientError(
      A2AClientErrorCode.CardInvalid,
      `the agent card at ${cardUrl} is not valid JSON`,
    );
  }
  if (!card || typeof card !== 'object' || Array.isArray(card)) {
    throw new A2AClientError(
      A2AClientErrorCode.CardInvalid,
      `the agent card at ${cardUrl} is not a JSON object`,
    );
  }
  const etag = res.headers.get('etag') ?? undefined;
  if (etag) o.cache?.set(cardUrl, { etag, card: card as Record<string, unknown> });
  return { cardUrl, card: card as Record<string, unknown>, etag, fromCache: false };
}

function statusError(cardUrl: string, status: number, tried: string[]): A2AClientError {
  if (status === 401 || status === 403) {
    return new A2AClientError(
      A2AClientErrorCode.CardProtected,
      `the agent card at ${cardUrl} is protected (HTTP ${status}): the server wants credentials ` +
        'just to read the card; pass them with --header NAME:VALUE',
      { status },
    );
  }
  if (status === 404) {
    return new A2AClientError(
      A2AClientErrorCode.CardNotFound,
      `no agent card at ${tried.join(' nor ')} (HTTP 404)`,
      {
        status,
      },
    );
  }
  return new A2AClientError(
    A2AClientErrorCode.HttpError,
    `reading the agent card at ${cardUrl} failed: HTTP ${status}`,
    {
      status,
    },
  );
}
