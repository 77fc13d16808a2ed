import { A2AClientError, A2AClientErrorCode } from './client.errors';
import type { AppliedAuth } from './client-fetch';
import { CardScheme, describeScheme } from './security-schemes';

/** What the caller holds; the card decides how it is sent. */
export interface AuthInput {
  /** A token: bearer token, API key, `user:password` for Basic, or an OAuth access token. */
  token?: string;
  /** Where the token came from, for the trace (`--token`, `environment`, `OAuth`, `saved`). */
  tokenSource?: string;
  /** A client certificate is configured (mutual TLS). */
  clientCertificate?: boolean;
}

/** Decision on credentials: what each request carries, and why, per scheme. */
export interface AuthPlan {
  /** Headers and query parameters added to every A2A request. */
  applied: AppliedAuth;
  /** Name of the scheme the token is sent under, if any. */
  usedScheme?: string;
  /** One line per declared scheme (`bearer: HTTP Bearer → Authorization: Bearer [REDACTED]`). */
  lines: string[];
  /** Requirements the card states that nothing given satisfies. */
  warnings: string[];
}

const TOKEN_KINDS = ['bearer', 'oauth2', 'openIdConnect'] as const;

/**
 * Picks the scheme that carries the token: a Bearer-type scheme (HTTP Bearer, OAuth 2, OIDC)
 * first; else an API key (one the card requires, if any); else HTTP Basic.
 */
function tokenScheme(schemes: CardScheme[], required: string[][]): CardScheme | undefined {
  for (const kind of TOKEN_KINDS) {
    const s = schemes.find((x) => x.kind === kind);
    if (s) return s;
  }
  const keys = schemes.filter((s) => s.kind === 'apiKey');
  const requiredNames = new Set(required.flat());
  return (
    keys.find((s) => requiredNames.has(s.name)) ??
    keys[0] ??
    schemes.find((s) => s.kind === 'basic')
  );
}

/** The header or query parameter that carries `token` under scheme `s`. */
function apply(s: CardScheme | undefined, token: string): { applied: AppliedAuth; shown: string } {
  const applied: AppliedAuth = { headers: {}, query: {} };
  if (s?.kind === 'apiKey' && s.paramName) {
    if (s.location === 'query') applied.query[s.paramName] = token;
    else if (s.location === 'cookie') applied.headers.Cookie = `${s.paramName}=${token}`;
    else applied.headers[s.paramName] = token;
    const where =
      s.location === 'query'
        ? `query parameter ${s.paramName}=`
        : s.location === 'cookie'
          ? `cookie ${s.paramName}=`
          : `header ${s.paramName}: `;
    return { applied, shown: `${where}[REDACTED]` };
  }
  if (s?.kind === 'basic') {
    if (!token.includes(':')) {
      throw new A2AClientError(
        A2AClientErrorCode.AuthConfig,
        `the card asks for HTTP Basic (scheme "${s.name}"): pass the token as user:password`,
      );
    }
    applied.headers.Authorization = `Basic ${Buffer.from(token, 'utf8').toString('base64')}`;
    return { applied, shown: 'Authorization: Basic [REDACTED]' };
  }
  applied.headers.Authorization = `Bearer ${token}`;
  return { applied, shown: 'Authorization: Bearer [REDACTED]' };
}

/**
 * Decides what every A2A request carries, from the schemes the card declares and what the
 * caller holds. The token goes as a Bearer token when the card declares HTTP Bearer, OAuth 2 or
 * OpenID Connect; otherwise as the card's API key (header, query parameter or cookie it names);
 * otherwise as HTTP Basic (`user:password`). A card that declares nothing gets a Bearer token.
 * @throws {A2AClientError} `AUTH_CONFIG`: Basic required and the token is not `user:password`.
 * @see RFC 6750 §2.1 (Bearer); RFC 7617 (Basic); A2A specification §5.5.3 (security schemes).
 */
export function planAuth(schemes: CardScheme[], required: string[][], input: AuthInput): AuthPlan {
  const lines: string[] = [];
  const warnings: string[] = [];
  const target = input.token ? tokenScheme(schemes, required) : undefined;
  const sent = input.token ? apply(target, input.token) : undefined;
  const source = input.tokenSource ? ` (token from ${input.tokenSource})` : '';
  for (const s of schemes) {
    let what = 'not used';
    if (s === target && sent) what = `sending ${sent.shown}${source}`;
    else if (s.kind === 'mtls')
      what = input.clientCertificate
        ? 'client certificate presented'
        : 'no client certificate given (--tls-cert/--tls-key)';
    lines.push(`${describeScheme(s)} → ${what}`);
  }
  if (sent && !target) {
    lines.push(`(no usable scheme declared) → sending ${sent.shown}${source}`);
  }
  if (!schemes.length) lines.unshift('the card declares no security scheme');
  const satisfied = (names: string[]): boolean =>
    names.every(
      (n) =>
        n === target?.name ||
        (input.clientCertificate && schemes.find((s) => s.name === n)?.kind === 'mtls'),
    );
  if (required.length && !required.some(satisfied)) {
    warnings.push(
      `the card requires ${required.map((r) => r.join(' + ') || '(nothing)').join(' or ')}; what was given does not satisfy it`,
    );
  }
  return {
    applied: sent?.applied ?? { headers: {}, query: {} },
    usedScheme: target?.name,
    lines,
    warnings,
  };
}
