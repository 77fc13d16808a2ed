import type { ClientTrace } from '../client-trace';
import type { CardScheme } from '../security-schemes';

/** A live OAuth grant: hands out a valid access token, refreshing it when it expires. */
export interface OAuthSession {
  /** How the token was obtained, for the trace (`OAuth client credentials`, `OAuth device code`). */
  readonly source: string;
  /**
   * A currently valid access token (refreshed or re-obtained when expired).
   * @throws {A2AClientError} `OAUTH` when no token can be obtained.
   */
  accessToken(): Promise<string>;
  /** Forgets the current access token so the next call obtains a new one (after a 401). */
  invalidate(): void;
}

/** What an {@link OAuthProvider} is told about the agent. */
export interface OAuthContext {
  /** The agent's OAuth 2 / OIDC schemes (at least one). */
  schemes: CardScheme[];
  /** Scopes the card's `securityRequirements` name, per scheme name (see `requiredScopes`). */
  requiredScopes?: Record<string, string[]>;
  /** URL the agent card was read from (the token store key). */
  cardUrl: string;
  /** Bounded, traced fetch without agent credentials, for the authorization server. */
  fetchImpl: typeof fetch;
  trace?: ClientTrace;
}

/** Runs an OAuth flow for an agent whose card declares OAuth 2 or OpenID Connect. */
export interface OAuthProvider {
  /**
   * A session for the agent, or `undefined` when no flow applies (nothing configured).
   * @throws {A2AClientError} `OAUTH` when a flow applies and fails.
   */
  open(ctx: OAuthContext): Promise<OAuthSession | undefined>;
}
