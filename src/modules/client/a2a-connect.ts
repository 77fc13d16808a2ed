import type { AgentCard } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { planAuth, type AuthPlan } from './auth-plan';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS } from './bounded-body';
import type { CredentialPolicy } from './credential-policy';
import {
  cardUrlCandidates,
  discoverCard,
  MemoryCardCache,
  type CardCache,
  type DiscoveredCard,
} from './card-discovery';
import { createClientFetch, type AppliedAuth, type ClientFetchOptions } from './client-fetch';
import type { ClientTrace } from './client-trace';
import { chooseInterface, type InterfaceChoice, type SpokenInterface } from './interface-choice';
import { requiredScopes as requiredScopesOf } from './oauth/oauth-scopes';
import type { OAuthProvider, OAuthSession } from './oauth/oauth-session';
import { bindSdkClient, toSdkCard } from './sdk-binding';
import { parseSchemes, requiredSchemes, type CardScheme } from './security-schemes';
import { baseFetchFor, type BaseFetch, type TlsFiles } from './tls-fetch';

/** How to reach and authenticate to an agent. Every field is optional. */
export interface A2AClientOptions {
  /** Token; the card decides how it is sent (Bearer, API key, Basic `user:password`). */
  token?: string;
  /** Where the token came from, for the trace; default `--token`. */
  tokenSource?: string;
  /** Extra headers on every request, discovery included (`--header NAME:VALUE`). */
  headers?: [string, string][];
  /** Client certificate, key and CA files (PEM). */
  tls?: TlsFiles;
  /** Per-request time bound, ms; default 60 000. Streams: until the response headers. */
  timeoutMs?: number;
  /** Per-response size bound, bytes; default 4 MiB. */
  maxBodyBytes?: number;
  /** Card cache for ETag revalidation; default a fresh in-memory cache. */
  cardCache?: CardCache;
  /** Records every request, answer and decision (redacted). */
  trace?: ClientTrace;
  /** Restrict the interface choice (e.g. `['HTTP+JSON 1.0']`). */
  prefer?: readonly SpokenInterface[];
  /** Runs OAuth when the card declares OAuth 2/OIDC and no token was given. */
  oauth?: OAuthProvider;
  /** Origins besides the card's that may receive credentials (`--trust-origin`), e.g. `https://api.example`. */
  trustOrigins?: string[];
  /** Credentials may go over plain HTTP to a non-loopback host (`--allow-insecure`). */
  allowInsecure?: boolean;
  /** Replaces the global fetch (ignored with `tls`). */
  fetchImpl?: typeof fetch;
}

/** Everything {@link connectParts} assembled, handed to `A2AClient`. */
export interface ConnectedParts {
  discovered: DiscoveredCard;
  sdkCard: AgentCard;
  choice: InterfaceChoice;
  schemes: CardScheme[];
  plan: AuthPlan;
  sdk: Client;
  base: BaseFetch;
  timeoutMs: number;
}

const OAUTH_KINDS = new Set(['oauth2', 'openIdConnect']);

function baseFor(o: A2AClientOptions): BaseFetch {
  if (o.fetchImpl && !o.tls)
    return { fetch: o.fetchImpl, clientCertificate: false, close: async () => undefined };
  return baseFetchFor(o.tls);
}

function registerSecrets(o: A2AClientOptions): void {
  const r = o.trace?.redactor;
  if (!r) return;
  r.addSecret(o.token);
  for (const [name, value] of o.headers ?? []) {
    if (/auth|token|key|secret|password|cookie|session/i.test(name))
      r.addSecret(value.replace(/^(Bearer|Basic)\s+/i, ''));
  }
}

function traceChoice(
  trace: ClientTrace | undefined,
  d: DiscoveredCard,
  choice: InterfaceChoice,
): void {
  if (!trace) return;
  trace.note(
    'discovery',
    `card from ${d.cardUrl}${d.fromCache ? ' (cached, revalidated)' : ''}${d.etag ? `, ETag ${d.etag}` : ''}`,
  );
  for (const v of choice.verdicts) {
    trace.note(
      'interface',
      `${v.entry.source}: ${v.entry.binding} ${v.entry.version} at ${v.entry.url} → ${v.reason}`,
    );
  }
  trace.note(
    'interface',
    `chosen: ${choice.chosen.spoken} at ${choice.chosen.url} (${choice.reason})`,
  );
}

function tracePlan(trace: ClientTrace | undefined, plan: AuthPlan): void {
  for (const line of plan.lines) trace?.note('auth', line);
  for (const w of plan.warnings) trace?.note('auth', `warning: ${w}`);
}

async function openOAuth(
  o: A2AClientOptions,
  schemes: CardScheme[],
  d: DiscoveredCard,
  common: Omit<ClientFetchOptions, 'stage'>,
): Promise<OAuthSession | undefined> {
  const oauthSchemes = schemes.filter((s) => OAUTH_KINDS.has(s.kind));
  if (o.token || !o.oauth || !oauthSchemes.length) return undefined;
  const fetchImpl = createClientFetch({ ...common, stage: 'oauth' });
  const requiredScopes = requiredScopesOf(d.card);
  return o.oauth.open({
    schemes: oauthSchemes,
    requiredScopes,
    cardUrl: d.cardUrl,
    fetchImpl,
    trace: o.trace,
  });
}

/**
 * Discovery, interface choice, credentials and SDK binding, in that order (see `A2AClient.connect`).
 * @throws {A2AClientError} As `A2AClient.connect`.
 */
export async function connectParts(url: string, o: A2AClientOptions): Promise<ConnectedParts> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  registerSecrets(o);
  const base = baseFor(o);
  try {
    const common = {
      base: base.fetch,
      extraHeaders: o.headers ?? [],
      timeoutMs,
      maxBodyBytes,
      trace: o.trace,
    };
    const policy = policyFor(url, o);
    const discoveryFetch = createClientFetch({ ...common, policy, stage: 'discovery' });
    const discovered = await discoverCard(url, {
      fetchImpl: discoveryFetch,
      maxBodyBytes,
      cache: o.cardCache ?? new MemoryCardCache(),
      trace: o.trace,
    });
    const choice = chooseInterface(discovered.card, o.prefer);
    traceChoice(o.trace, discovered, choice);
    const sdkCard = toSdkCard(discovered.card);
    const schemes = parseSchemes(discovered.card);
    for (const s of schemes)
      if (s.kind === 'apiKey' && s.location === 'query' && s.paramName)
        o.trace?.redactor.addSecretParam(s.paramName);
    const session = await openOAuth(o, schemes, discovered, common);
    const token = o.token ?? (session ? await session.accessToken() : undefined);
    o.trace?.redactor.addSecret(token);
    const tokenSource = session ? session.source : (o.tokenSource ?? '--token');
    const plan = planAuth(schemes, requiredSchemes(discovered.card), {
      token,
      tokenSource,
      clientCertificate: base.clientCertificate,
    });
    tracePlan(o.trace, plan);
    const auth = session
      ? sessionAuth(session, o.trace)
      : async (): Promise<AppliedAuth> => plan.applied;
    const onUnauthorized = session
      ? async (): Promise<boolean> => (session.invalidate(), true)
      : undefined;
    const sdk = await bindSdkClient(
      sdkCard,
      choice,
      createClientFetch({ ...common, auth, onUnauthorized, policy, stage: 'call' }),
    );
    return { discovered, sdkCard, choice, schemes, plan, sdk, base, timeoutMs };
  } catch (err) {
    await base.close();
    throw err;
  }
}

/** The credential policy for an agent reached at `url` as typed (its origin is the card's). */
export function policyFor(url: string, o: A2AClientOptions): CredentialPolicy {
  let cardOrigin = '';
  try {
    cardOrigin = new URL(cardUrlCandidates(url)[0]).origin;
  } catch {
    // discoverCard reports the invalid URL.
  }
  return {
    cardOrigin,
    trustOrigins: o.trustOrigins ?? [],
    allowInsecure: o.allowInsecure ?? false,
  };
}

/** Bearer header from a live OAuth session (refreshed tokens are registered as secrets). */
function sessionAuth(session: OAuthSession, trace?: ClientTrace): () => Promise<AppliedAuth> {
  return async () => {
    const token = await session.accessToken();
    trace?.redactor.addSecret(token);
    return { headers: { Authorization: `Bearer ${token}` }, query: {} };
  };
}
