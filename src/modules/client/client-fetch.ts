import { A2AClientError, A2AClientErrorCode } from './client.errors';
import { capBody, isEventStream, readCappedText, terminateSse } from './bounded-body';
import type { ClientTrace, TraceStage } from './client-trace';
import { credentialRefusal, type CredentialPolicy } from './credential-policy';

/** Credentials applied to one request: headers and query parameters. */
export interface AppliedAuth {
  /** Header name → value (e.g. `Authorization: Bearer …`, `X-API-Key: …`). */
  headers: Record<string, string>;
  /** Query parameter name → value (API keys the card places `in: query`). */
  query: Record<string, string>;
}

/** How {@link createClientFetch} bounds, authenticates and traces requests. */
export interface ClientFetchOptions {
  /** The underlying fetch (global fetch, or one bound to an mTLS dispatcher). */
  base: typeof fetch;
  /** Headers added to every request unless the caller set them (`--header N:V`). */
  extraHeaders: [string, string][];
  /** Credentials for each request; absent for discovery, where no scheme is known yet. */
  auth?: () => Promise<AppliedAuth>;
  /** Time bound per request, ms; for SSE only until the response headers arrive. */
  timeoutMs: number;
  /** Size bound per non-SSE response body, bytes. */
  maxBodyBytes: number;
  /** Where requests and responses are recorded (redacted). */
  trace?: ClientTrace;
  /** Trace stage of these requests. */
  stage: TraceStage;
  /**
   * Called on a 401; when it resolves true the request is sent once more with fresh credentials
   * (an OAuth session drops its access token so the next `auth()` refreshes it).
   */
  onUnauthorized?: () => Promise<boolean>;
  /**
   * Where credentials and extra headers may go; a request they may not go to is refused with
   * `CREDENTIAL_POLICY` (when it would carry any). Absent: no check (OAuth endpoints).
   */
  policy?: CredentialPolicy;
}

/** Redirects followed per request (each hop re-checked; a cross-origin hop drops credentials). */
const MAX_REDIRECTS = 5;

/** Input accepted by fetch. */
type FetchInput = string | URL | Request;

/**
 * A `fetch` for the SDK transports and for discovery: adds extra and auth headers and query
 * parameters, bounds time (`AbortSignal.timeout`) and body size, repairs SSE streams that end
 * without a blank line, maps network failures to {@link A2AClientError}, and traces each exchange.
 * @throws {A2AClientError} `TIMEOUT` (no answer within `timeoutMs`), `UNREACHABLE` (network/TLS).
 */
export function createClientFetch(o: ClientFetchOptions): typeof fetch {
  const impl = async (input: FetchInput, init: RequestInit = {}): Promise<Response> => {
    const res = await following(o, input, init);
    if (res.status !== 401 || !o.onUnauthorized || !(await o.onUnauthorized())) return res;
    await res.body?.cancel();
    o.trace?.note(o.stage, '401: retrying once with renewed credentials');
    return following(o, input, init);
  };
  return impl as typeof fetch;
}

/**
 * Follows redirects by hand (`redirect: 'manual'`): a hop to another origin goes without
 * credentials and extra headers, and so does every later hop; 303 (and 301/302 after POST)
 * turn into a GET without body.
 */
async function following(
  o: ClientFetchOptions,
  input: FetchInput,
  init: RequestInit,
): Promise<Response> {
  let url = new URL(input instanceof Request ? input.url : String(input));
  let req: RequestInit = { ...init, redirect: 'manual' };
  let credentials = true;
  for (let hop = 0; ; hop++) {
    const res = await once(o, url, req, credentials);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status > 399 || res.status === 304 || !location) return res;
    if (hop >= MAX_REDIRECTS) return res;
    await res.body?.cancel();
    const next = new URL(location, url);
    if (credentials && next.origin !== url.origin) {
      credentials = false;
      o.trace?.note(
        o.stage,
        `redirect to another origin (${next.origin}): credentials and --header values dropped`,
      );
    }
    const method = (req.method ?? 'GET').toUpperCase();
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST'))
      req = { ...req, method: 'GET', body: undefined };
    url = next;
  }
}

/** One exchange: credentials (when allowed), bounds, trace, body wrapping. */
async function once(
  o: ClientFetchOptions,
  url: URL,
  init: RequestInit,
  credentials: boolean,
): Promise<Response> {
  url = new URL(url);
  const headers = new Headers(init.headers);
  const auth = credentials && o.auth ? await o.auth() : undefined;
  const extra = credentials ? o.extraHeaders : [];
  const carries =
    extra.length > 0 ||
    Object.keys(auth?.headers ?? {}).length > 0 ||
    Object.keys(auth?.query ?? {}).length > 0;
  const refusal = carries && o.policy ? credentialRefusal(url, o.policy) : undefined;
  if (refusal) throw new A2AClientError(A2AClientErrorCode.CredentialPolicy, refusal);
  for (const [n, v] of extra) if (!headers.has(n)) headers.set(n, v);
  for (const [n, v] of Object.entries(auth?.headers ?? {})) headers.set(n, v);
  for (const [n, v] of Object.entries(auth?.query ?? {})) url.searchParams.set(n, v);
  const streaming = (headers.get('accept') ?? '').includes('text/event-stream');
  const bound = boundSignal(init.signal ?? undefined, o.timeoutMs, streaming);
  const method = init.method ?? 'GET';
  traceRequest(o, method, url, headers, init.body);
  const started = Date.now();
  let res: Response;
  try {
    res = await o.base(url, { ...init, headers, signal: bound.signal });
  } catch (err) {
    throw toClientError(
      err,
      `${method} ${o.trace?.redactor.url(url.href) ?? url.origin}`,
      o.timeoutMs,
    );
  } finally {
    bound.headersArrived();
  }
  await traceResponse(o, res, Date.now() - started);
  if (res.status === 429) {
    await res.body?.cancel().catch(() => undefined);
    throw rateLimited(res, url);
  }
  return isEventStream(res) ? terminateSse(res) : capBody(res, o.maxBodyBytes);
}

/**
 * A 429 as `RATE_LIMITED`, with the wait from `Retry-After` (seconds or an HTTP date).
 * @see RFC 6585 §4; RFC 9110 §10.2.3 (Retry-After).
 */
function rateLimited(res: Response, url: URL): A2AClientError {
  const header = res.headers.get('retry-after') ?? '';
  const seconds = /^\d+$/.test(header)
    ? Number(header)
    : header && !Number.isNaN(Date.parse(header))
      ? Math.max(0, Math.ceil((Date.parse(header) - Date.now()) / 1000))
      : undefined;
  return new A2AClientError(
    A2AClientErrorCode.RateLimited,
    `${url.origin} rate limited this client (HTTP 429)${seconds === undefined ? '' : `, retry in ${seconds} s`}`,
    { status: 429, retryAfterSeconds: seconds },
  );
}

/** Combines the caller's signal with the time bound; SSE bounds only the wait for headers. */
function boundSignal(
  outer: AbortSignal | undefined,
  timeoutMs: number,
  streaming: boolean,
): { signal: AbortSignal; headersArrived: () => void } {
  if (!streaming) {
    const timeout = AbortSignal.timeout(timeoutMs);
    return {
      signal: outer ? AbortSignal.any([outer, timeout]) : timeout,
      headersArrived: () => undefined,
    };
  }
  const ctl = new AbortController();
  const timer = setTimeout(
    () => ctl.abort(new DOMException('stream did not open in time', 'TimeoutError')),
    timeoutMs,
  );
  return {
    signal: outer ? AbortSignal.any([outer, ctl.signal]) : ctl.signal,
    headersArrived: () => clearTimeout(timer),
  };
}

/**
 * Maps a fetch rejection to an {@link A2AClientError}; other errors (the caller's own abort)
 * pass through.
 * @param what - `METHOD url` for the message (already redacted).
 */
export function toClientError(err: unknown, what: string, timeoutMs: number): unknown {
  if (err instanceof A2AClientError) return err;
  const name = (err as { name?: string })?.name;
  if (name === 'TimeoutError') {
    return new A2AClientError(
      A2AClientErrorCode.Timeout,
      `${what}: no answer within ${timeoutMs} ms`,
      { cause: err },
    );
  }
  // fetch's TypeError may come from another realm (jest), so match by name and message.
  const failed = err as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (failed?.name === 'TypeError' && (failed.message === 'fetch failed' || failed.cause?.code)) {
    const detail = failed.cause?.code ?? failed.cause?.message ?? failed.message;
    return new A2AClientError(
      A2AClientErrorCode.Unreachable,
      `${what}: cannot reach the host (${detail})`,
      { cause: err },
    );
  }
  return err;
}

function traceRequest(
  o: ClientFetchOptions,
  method: string,
  url: URL,
  headers: Headers,
  body: unknown,
): void {
  const t = o.trace;
  if (!t) return;
  t.add(o.stage, '→', `${method} ${t.redactor.url(url.href)}`);
  for (const [n, v] of t.redactor.headers(headers.entries())) t.add(o.stage, '→', `  ${n}: ${v}`);
  if (typeof body === 'string' && t.bodyChars > 0)
    t.add(o.stage, '→', `  body: ${t.excerpt(body)}`);
}

async function traceResponse(o: ClientFetchOptions, res: Response, ms: number): Promise<void> {
  const t = o.trace;
  if (!t) return;
  const type = res.headers.get('content-type') ?? '-';
  const etag = res.headers.get('etag');
  t.add(
    o.stage,
    '←',
    `${res.status} ${res.statusText} (${type}${etag ? `, ETag ${etag}` : ''}) in ${ms} ms`,
  );
  const challenge = res.headers.get('www-authenticate');
  if (challenge) t.add(o.stage, '←', `  www-authenticate: ${challenge}`);
  if (t.bodyChars === 0 || isEventStream(res) || !res.body) return;
  const text = await readCappedText(res.clone(), o.maxBodyBytes).catch(() => '(unreadable)');
  if (text) t.add(o.stage, '←', `  body: ${t.excerpt(text)}`);
}
