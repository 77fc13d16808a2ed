import type * as oauth from 'oauth4webapi';
import { A2AClientError, A2AClientErrorCode } from '../client.errors';
import type { CardScheme } from '../security-schemes';
import { authServerFor } from './auth-server';
import {
  clientCredentialsGrant,
  deviceCodeGrant,
  refreshGrant,
  registerClient,
  revokeToken,
  type DevicePrompt,
  type GrantContext,
  type OAuthClient,
} from './oauth-grants';
import type { OAuthContext, OAuthProvider, OAuthSession } from './oauth-session';
import { authorizationCodeGrant, OAUTH_REDIRECT_URI } from './pkce-flow';
import type { StoredTokens, TokenStore } from './token-store';

/** How the CLI (or an embedder) runs OAuth. */
export interface OAuthProviderOptions {
  /** Pre-registered client id (`SUPERQODE_A2A_OAUTH_CLIENT_ID`); without it, DCR is tried. */
  clientId?: string;
  /** Its secret (`SUPERQODE_A2A_OAUTH_CLIENT_SECRET`): enables the client credentials grant. */
  clientSecret?: string;
  store: TokenStore;
  /** Enables the device flow; shows the code to the user. */
  onDevicePrompt?: (p: DevicePrompt) => void;
  /** Enables the authorization code + PKCE flow; shows the URL to open. */
  onAuthorizationUrl?: (url: string) => void;
  /** One protocol second in ms (device polling; tests shorten it). */
  secondMs?: number;
  redirectUri?: string;
}

/** Access tokens within this margin of expiry are renewed first. */
const EXPIRY_MARGIN_MS = 30_000;
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** Token store key of an agent scheme. */
export function tokenKey(cardUrl: string, scheme: string): string {
  return `${cardUrl}#${scheme}`;
}

/** Scopes to request: every scope the card's flows list; OpenID Connect always asks for `openid`. */
function scopesOf(s: CardScheme): string[] {
  const listed = Object.values(s.flows).flatMap((f) => f?.scopes ?? []);
  return [...new Set(s.kind === 'openIdConnect' ? ['openid', ...listed] : listed)];
}

/**
 * Runs OAuth for agents whose card declares OAuth 2 or OpenID Connect: reuses stored tokens
 * (refreshing them), else client credentials (when a client secret is configured), else the
 * device flow, else authorization code + PKCE; a missing client id is obtained by dynamic client
 * registration at the authorization server. Tokens go to the {@link TokenStore}.
 * @see RFC 6749 §4.4, §6; RFC 8628; RFC 7636; RFC 7591; RFC 8414; RFC 7009.
 */
export class DefaultOAuthProvider implements OAuthProvider {
  constructor(private readonly o: OAuthProviderOptions) {}

  async open(ctx: OAuthContext): Promise<OAuthSession | undefined> {
    const scheme = ctx.schemes[0];
    const grant: GrantContext = {
      as: await authServerFor(scheme, ctx.fetchImpl),
      fetchImpl: ctx.fetchImpl,
      trace: ctx.trace,
    };
    const key = tokenKey(ctx.cardUrl, scheme.name);
    let tokens = this.o.store.get(key);
    if (tokens && tokens.issuer === grant.as.issuer)
      ctx.trace?.note('oauth', `using stored tokens (${this.o.store.kind}, ${tokens.flow})`);
    else tokens = await this.obtain(scheme, grant, key);
    const session = new StoredSession(tokens, (t) => this.renew(scheme, grant, key, t));
    return session;
  }

  /**
   * Revokes (refresh token, then access token) and deletes the stored tokens of every scheme.
   * Revocation is best effort: the tokens are deleted locally even when it fails.
   * @returns One line per scheme saying what was done.
   */
  async logout(cardUrl: string, schemes: CardScheme[], fetchImpl: typeof fetch): Promise<string[]> {
    const oauthSchemes = schemes.filter((s) => s.kind === 'oauth2' || s.kind === 'openIdConnect');
    if (!oauthSchemes.length)
      return ['the card declares no OAuth 2 / OpenID Connect scheme: nothing to log out'];
    const lines: string[] = [];
    for (const s of oauthSchemes) {
      const key = tokenKey(cardUrl, s.name);
      const t = this.o.store.get(key);
      if (!t) {
        lines.push(`${s.name}: no stored tokens`);
        continue;
      }
      const revoked = await this.revokeAll(s, t, fetchImpl).catch(
        (err: Error) => `revocation failed (${err.message})`,
      );
      this.o.store.delete(key);
      lines.push(`${s.name}: ${revoked}; stored tokens deleted (${this.o.store.kind})`);
    }
    return lines;
  }

  private async revokeAll(
    s: CardScheme,
    t: StoredTokens,
    fetchImpl: typeof fetch,
  ): Promise<string> {
    const ctx: GrantContext = { as: await authServerFor(s, fetchImpl), fetchImpl };
    const client = this.clientFor(t);
    if (t.refreshToken) await revokeToken(ctx, client, t.refreshToken, 'refresh_token');
    await revokeToken(ctx, client, t.accessToken, 'access_token');
    return `revoked at ${ctx.as.revocation_endpoint}`;
  }

  private clientFor(t: StoredTokens): OAuthClient {
    const secret =
      t.clientSecret ?? (t.clientId === this.o.clientId ? this.o.clientSecret : undefined);
    return { clientId: t.clientId, clientSecret: secret };
  }

  private async obtain(s: CardScheme, ctx: GrantContext, key: string): Promise<StoredTokens> {
    const scopes = scopesOf(s);
    const { clientId, clientSecret } = this.o;
    let flow: string;
    let client: OAuthClient;
    let res: oauth.TokenEndpointResponse;
    if (clientId && clientSecret) {
      [flow, client] = ['client credentials', { clientId, clientSecret }];
      res = await clientCredentialsGrant(ctx, client, scopes);
    } else if (ctx.as.device_authorization_endpoint && this.o.onDevicePrompt) {
      flow = 'device code';
      client = clientId
        ? { clientId }
        : await registerClient(ctx, [DEVICE_GRANT, 'refresh_token'], []);
      res = await deviceCodeGrant(ctx, client, scopes, {
        onPrompt: this.o.onDevicePrompt,
        secondMs: this.o.secondMs,
      });
    } else if (ctx.as.authorization_endpoint && this.o.onAuthorizationUrl) {
      flow = 'authorization code';
      const redirectUri = this.o.redirectUri ?? OAUTH_REDIRECT_URI;
      client = clientId
        ? { clientId }
        : await registerClient(ctx, ['authorization_code', 'refresh_token'], [redirectUri]);
      res = await authorizationCodeGrant(ctx, client, scopes, {
        onAuthorizationUrl: this.o.onAuthorizationUrl,
        redirectUri,
      });
    } else {
      throw new A2AClientError(
        A2AClientErrorCode.OAuth,
        `the card asks for OAuth (scheme "${s.name}") and no flow can run: set SUPERQODE_A2A_OAUTH_CLIENT_ID and SUPERQODE_A2A_OAUTH_CLIENT_SECRET for client credentials, or use an authorization server with a device or authorization endpoint`,
      );
    }
    ctx.trace?.note('oauth', `obtained an access token (${flow})`);
    const tokens = toStored(
      res,
      client,
      ctx.as.issuer,
      flow,
      undefined,
      client.clientId !== clientId,
    );
    this.o.store.set(key, tokens);
    return tokens;
  }

  private async renew(
    s: CardScheme,
    ctx: GrantContext,
    key: string,
    t: StoredTokens,
  ): Promise<StoredTokens> {
    if (!t.refreshToken) return this.obtain(s, ctx, key);
    ctx.trace?.note('oauth', 'access token expired: refreshing');
    let res: oauth.TokenEndpointResponse;
    try {
      res = await refreshGrant(ctx, this.clientFor(t), t.refreshToken);
    } catch (err) {
      // A revoked or expired grant (invalid_grant): drop the tokens and sign in again.
      ctx.trace?.note('oauth', `${(err as Error).message}; obtaining new tokens`);
      this.o.store.delete(key);
      return this.obtain(s, ctx, key);
    }
    const renewed = toStored(res, this.clientFor(t), t.issuer, t.flow, t, Boolean(t.clientSecret));
    this.o.store.set(key, renewed);
    return renewed;
  }
}

/** Token response → stored tokens; a refresh token not rotated by the server is kept. */
function toStored(
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
class StoredSession implements OAuthSession {
  constructor(
    private tokens: StoredTokens,
    private readonly renew: (t: StoredTokens) => Promise<StoredTokens>,
  ) {}

  get source(): string {
    return `OAuth ${this.tokens.flow}`;
  }

  async accessToken(): Promise<string> {
    if (
      this.tokens.expiresAt !== undefined &&
      this.tokens.expiresAt - EXPIRY_MARGIN_MS <= Date.now()
    ) {
      this.tokens = await this.renew(this.tokens);
    }
    return this.tokens.accessToken;
  }

  invalidate(): void {
    this.tokens = { ...this.tokens, expiresAt: 0 };
  }
}
