import type * as oauth from 'oauth4webapi';
import type { OAuthClient } from './oauth-grants';
import type { OAuthSession } from './oauth-session';
import type { StoredTokens } from './token-store';

/** Access tokens within this margin of expiry are renewed first. */
export const EXPIRY_MARGIN_MS = 30_000;

/** True when the stored access token is within {@link EXPIRY_MARGIN_MS} of its expiry. */
export function isExpiring(t: StoredTokens): boolean {
  return t.expiresAt !== undefined && t.expiresAt - EXPIRY_MARGIN_MS <= Date.now();
}

/** Token response → stored tokens; a refresh token not rotated by the server is kept. */
export function toStored(
  r: oauth.TokenEndpointResponse,
  client: OAuthClient,
  issuer: string,
  flow: string,
  prev: StoredTokens | undefined,
  keepSecret: boolean,
): StoredTokens {
  return {
    accessToken: r.access_token,
    refreshToken: r.refresh_token ?? prev?.refreshToken,
    expiresAt: typeof r.expires_in === 'number' ? Date.now() + r.expires_in * 1000 : undefined,
    scope: r.scope,
    clientId: client.clientId,
    clientSecret: keepSecret ? client.clientSecret : undefined,
    issuer,
    flow,
  };
}

/** A session over stored tokens: renews when within {@link EXPIRY_MARGIN_MS} of expiry. */
export class StoredSession implements OAuthSession {
  constructor(
    private tokens: StoredTokens,
    private readonly renew: (t: StoredTokens) => Promise<StoredTokens>,
  ) {}

  get source(): string {
    return `OAuth ${this.tokens.flow}`;
  }

  async accessToken(): Promise<string> {
    if (isExpiring(this.tokens)) this.tokens = await this.renew(this.tokens);
    return this.tokens.accessToken;
  }

  invalidate(): void {
    this.tokens = { ...this.tokens, expiresAt: 0 };
  }
}
