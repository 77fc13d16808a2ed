import * as oauth from 'oauth4webapi';
import { A2AClientError, A2AClientErrorCode } from '../client.errors';
import type { CardScheme, OAuthFlowInfo } from '../security-schemes';

/** Authorization server metadata (RFC 8414 names) as used by oauth4webapi. */
export type AuthServer = oauth.AuthorizationServer;

/** Options oauth4webapi takes on every request: our fetch, and plain HTTP only on loopback. */
export function requestOptions(
  url: string | undefined,
  fetchImpl: typeof fetch,
): { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]: boolean } {
  return { [oauth.customFetch]: fetchImpl, [oauth.allowInsecureRequests]: isLoopbackHttp(url) };
}

/** True for `http://localhost`, `http://127.x.x.x` and `http://[::1]` (test and local servers). */
export function isLoopbackHttp(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const u = new URL(url);
    return (
      u.protocol === 'http:' &&
      (u.hostname === 'localhost' || u.hostname === '[::1]' || /^127\./.test(u.hostname))
    );
  } catch {
    return false;
  }
}

/**
 * Issuer for a metadata URL: strips `/.well-known/openid-configuration` (OIDC Discovery §4) or
 * moves the path after `/.well-known/oauth-authorization-server` back behind the host (RFC 8414 §3.1).
 */
export function issuerOf(metadataUrl: string): URL {
  const u = new URL(metadataUrl);
  const oidc = '/.well-known/openid-configuration';
  const rfc8414 = '/.well-known/oauth-authorization-server';
  if (u.pathname.endsWith(oidc)) return new URL(u.origin + u.pathname.slice(0, -oidc.length));
  if (u.pathname.startsWith(rfc8414)) return new URL(u.origin + u.pathname.slice(rfc8414.length));
  return new URL(u.origin);
}

/**
 * Fetches and validates authorization server metadata (issuer must match the URL it came from).
 * @throws {A2AClientError} `OAUTH` with the reason.
 * @see RFC 8414 §3 (metadata); OpenID Connect Discovery 1.0 §4.
 */
export async function fetchAuthServer(
  metadataUrl: string,
  fetchImpl: typeof fetch,
): Promise<AuthServer> {
  try {
    const res = await fetchImpl(metadataUrl, { headers: { Accept: 'application/json' } });
    return await oauth.processDiscoveryResponse(issuerOf(metadataUrl), res);
  } catch (err) {
    throw oauthError(`authorization server metadata at ${metadataUrl}`, err);
  }
}

function firstFlow(s: CardScheme): OAuthFlowInfo | undefined {
  return s.flows.clientCredentials ?? s.flows.deviceCode ?? s.flows.authorizationCode;
}

/**
 * RFC 8414 metadata at an origin (`/.well-known/oauth-authorization-server`), else OIDC
 * discovery (`/.well-known/openid-configuration`); undefined when neither answers validly.
 */
async function discoverAtOrigin(
  origin: string,
  fetchImpl: typeof fetch,
): Promise<AuthServer | undefined> {
  for (const algorithm of ['oauth2', 'oidc'] as const) {
    try {
      const res = await oauth.discoveryRequest(new URL(origin), {
        algorithm,
        ...requestOptions(origin, fetchImpl),
      });
      return await oauth.processDiscoveryResponse(new URL(origin), res);
    } catch {
      // not served there, or not valid: try the next well-known path, then the card's URLs
    }
  }
  return undefined;
}

/** Drops undefined members so they do not override discovered metadata. */
function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Metadata for a card scheme: discovered from `oauth2MetadataUrl` / `openIdConnectUrl` when the
 * card gives one, else by RFC 8414 / OIDC discovery at the token endpoint's origin; the flow URLs
 * the card lists (token, device authorization, authorization) take precedence, and alone suffice
 * when no metadata is found (issuer = the token endpoint's origin).
 * @throws {A2AClientError} `OAUTH`: discovery at the given URL failed, or no endpoint is known.
 * @see RFC 8414 §3; OpenID Connect Discovery 1.0 §4.
 */
export async function authServerFor(s: CardScheme, fetchImpl: typeof fetch): Promise<AuthServer> {
  const f = s.flows;
  const fromCard = defined({
    token_endpoint: firstFlow(s)?.tokenUrl,
    device_authorization_endpoint: f.deviceCode?.deviceAuthorizationUrl,
    authorization_endpoint: f.authorizationCode?.authorizationUrl,
  });
  if (s.metadataUrl) return { ...(await fetchAuthServer(s.metadataUrl, fetchImpl)), ...fromCard };
  if (!fromCard.token_endpoint)
    throw new A2AClientError(
      A2AClientErrorCode.OAuth,
      `OAuth scheme "${s.name}" names neither a metadata URL nor a token URL`,
    );
  const origin = new URL(fromCard.token_endpoint).origin;
  const discovered = await discoverAtOrigin(origin, fetchImpl);
  return { issuer: origin, ...discovered, ...fromCard };
}

/** HTTP status of the answer behind an oauth4webapi error (ResponseBodyError, or OPE with the response as cause). */
function statusOf(err: unknown): { status?: number; text?: string } {
  const e = err as { status?: unknown; response?: Response; cause?: unknown };
  const res =
    e.response ??
    (e.cause && typeof (e.cause as Response).status === 'number' ? e.cause : undefined);
  const r = res as Response | undefined;
  const status = typeof e.status === 'number' ? e.status : r?.status;
  return { status, text: r?.statusText };
}

/**
 * An {@link A2AClientError} (`OAUTH`) for a failed step, carrying the OAuth `error` and
 * `error_description` when the server sent them (RFC 6749 §5.2) and the HTTP status when there
 * was an answer (`status` set on the error).
 */
export function oauthError(step: string, err: unknown): A2AClientError {
  if (err instanceof A2AClientError) return err;
  const e = err as { error?: string; error_description?: string; message?: string };
  const { status, text } = statusOf(err);
  const http = status ? `HTTP ${status}${text ? ` ${text}` : ''}` : undefined;
  const detail = e.error
    ? `${e.error}${e.error_description ? `: ${e.error_description}` : ''}${http ? `, ${http}` : ''}`
    : (http ?? e.message ?? String(err));
  return new A2AClientError(A2AClientErrorCode.OAuth, `OAuth ${step} failed (${detail})`, {
    cause: err,
    status,
  });
}

/** OAuth `error` codes that mean "try again later", not "this grant is gone" (RFC 6749 §5.2, §4.1.2.1). */
const TRANSIENT_CODES = new Set(['temporarily_unavailable', 'server_error']);

/**
 * True when a failed OAuth request may succeed later: no answer (network), a 5xx, 429, or a
 * `temporarily_unavailable` / `server_error` error code. Stored tokens are kept on such errors.
 */
export function isTransientOAuthError(err: unknown): boolean {
  const cause = err instanceof A2AClientError ? err.cause : err;
  const code = (cause as { error?: unknown })?.error;
  if (typeof code === 'string') return TRANSIENT_CODES.has(code);
  const status = err instanceof A2AClientError ? err.status : statusOf(cause).status;
  return status === undefined || status >= 500 || status === 429;
}
