import type * as oauth from 'oauth4webapi';
import { A2AClientError, A2AClientErrorCode } from '../client.errors';
import type { ClientTrace } from '../client-trace';
import type { CardScheme, OAuthFlowName } from '../security-schemes';
import { authServerFor, isTransientOAuthError, type AuthServer } from './auth-server';
import {
  clientCredentialsGrant,
  deviceCodeGrant,
  refreshGrant,
  registerClient,
  type DevicePrompt,
  type GrantContext,
  type OAuthClient,
} from './oauth-grants';
import { logoutSchemes, type LogoutReport } from './oauth-logout';
import { scopesToRequest } from './oauth-scopes';
import type { OAuthContext, OAuthProvider, OAuthSession } from './oauth-session';
import { authorizationCodeGrant, OAUTH_REDIRECT_URI } from './pkce-flow';
import { isExpiring, StoredSession, toStored } from './stored-session';
import { tokenKey, type StoredTokens, type TokenStore } from './token-store';

/** How the CLI (or an embedder) runs OAuth. */
export interface OAuthProviderOptions {
  /** Pre-registered client id (`SUPERQODE_A2A_OAUTH_CLIENT_ID`); without it, DCR is tried. */
  clientId?: string;
  /** Its secret (`SUPERQODE_A2A_OAUTH_CLIENT_SECRET`): enables the client credentials grant. */
  clientSecret?: string;
  store: TokenStore;
  /** Enables the device flow; shows the code to the user. */
  onDevicePrompt?: (p: DevicePrompt) => void;
  /** Enables the authorization code + PKCE flow; shows (and may open) the URL. */
  onAuthorizationUrl?: (url: string) => void;
  /** A browser can be opened here (local display): authorization code + PKCE before device code. */
  display?: boolean;
  /** Something the user should know that does not stop the call (a transient refresh failure). */
  onWarning?: (line: string) => void;
  /** One protocol second in ms (device polling; tests shorten it). */
  secondMs?: number;
  redirectUri?: string;
}

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export { tokenKey };

/** Whether the card lets this flow run: an OAuth 2 scheme listing flows must list it. */
function cardAllows(s: CardScheme, flow: OAuthFlowName): boolean {
  return s.kind !== 'oauth2' || !Object.keys(s.flows).length || Boolean(s.flows[flow]);
}

/** Where one scheme's grants run; the metadata is fetched once, when first needed. */
interface SchemeRun {
  scheme: CardScheme;
  key: string;
  scopes: string[];
  trace?: ClientTrace;
  grant(): Promise<GrantContext>;
}

/**
 * Runs OAuth for agents whose card declares OAuth 2 or OpenID Connect: reuses stored tokens
 * (refreshing them; on a transient refresh or metadata failure the stored access token is still
 * tried), else client credentials (when a client secret is configured), else authorization code +
 * PKCE when a display is available, else the device flow (when the card allows it), else
 * authorization code with the URL printed. A missing client id is obtained by dynamic client
 * registration at the authorization server, stored and reused for that server. Requested scopes
 * are those the card's `securityRequirements` name (plus `openid` for OIDC).
 * @see RFC 6749 §4.4, §6; RFC 8628; RFC 7636; RFC 7591; RFC 8414; RFC 7009; RFC 8252.
 */
export class DefaultOAuthProvider implements OAuthProvider {
  constructor(private readonly o: OAuthProviderOptions) {}

  async open(ctx: OAuthContext): Promise<OAuthSession | undefined> {
    const required = ctx.requiredScopes ?? {};
    const scheme = ctx.schemes.find((s) => required[s.name]) ?? ctx.schemes[0];
    let as: Promise<AuthServer> | undefined;
    const run: SchemeRun = {
      scheme,
      key: tokenKey(ctx.cardUrl, scheme.name),
      scopes: scopesToRequest(scheme, required),
      trace: ctx.trace,
      grant: async () => {
        as ??= authServerFor(scheme, ctx.fetchImpl).catch((err: unknown) => {
          as = undefined;
          throw err;
        });
        return { as: await as, fetchImpl: ctx.fetchImpl, trace: ctx.trace };
      },
    };
    const stored = this.o.store.get(run.key);
    let grant: GrantContext;
    try {
      grant = await run.grant();
    } catch (err) {
      if (!stored) throw err;
      ctx.trace?.note('oauth', `${(err as Error).message}; trying the stored access token`);
      this.o.onWarning?.(`${(err as Error).message}; trying the stored access token`);
      return new StoredSession(stored, (t) => this.renew(run, t));
    }
    let tokens: StoredTokens;
    if (stored && stored.issuer === grant.as.issuer) {
      ctx.trace?.note('oauth', `using stored tokens (${this.o.store.kind}, ${stored.flow})`);
      tokens = stored;
    } else tokens = await this.obtain(run, grant);
    return new StoredSession(tokens, (t) => this.renew(run, t));
  }

  /**
   * Revokes (refresh token, then access token) and deletes the stored tokens of every scheme.
   * The tokens are deleted locally even when revocation fails; `ok` is false then.
   */
  logout(cardUrl: string, schemes: CardScheme[], fetchImpl: typeof fetch): Promise<LogoutReport> {
    return logoutSchemes(
      { store: this.o.store, clientFor: (t) => this.clientFor(t) },
      cardUrl,
      schemes,
      fetchImpl,
    );
  }

  private clientFor(t: StoredTokens): OAuthClient {
    const secret =
      t.clientSecret ?? (t.clientId === this.o.clientId ? this.o.clientSecret : undefined);
    return { clientId: t.clientId, clientSecret: secret };
  }

  /** The configured client id, else one registered earlier at this AS, else a new registration. */
  private async publicClient(
    ctx: GrantContext,
    grant: string,
    redirectUris: string[],
  ): Promise<{ client: OAuthClient; reused: boolean }> {
    if (this.o.clientId) return { client: { clientId: this.o.clientId }, reused: false };
    const known = this.o.store.getClient(ctx.as.issuer, grant);
    if (known) {
      ctx.trace?.note('oauth', `using client ${known.clientId} registered at ${ctx.as.issuer}`);
      return { client: known, reused: true };
    }
    const client = await registerClient(ctx, [grant, 'refresh_token'], redirectUris);
    this.o.store.setClient(ctx.as.issuer, grant, client);
    return { client, reused: false };
  }

  private async obtain(run: SchemeRun, ctx: GrantContext, retry = true): Promise<StoredTokens> {
    const { scheme: s, scopes } = run;
    const { clientId, clientSecret } = this.o;
    const canDevice = Boolean(
      ctx.as.device_authorization_endpoint && this.o.onDevicePrompt && cardAllows(s, 'deviceCode'),
    );
    const canCode = Boolean(
      ctx.as.authorization_endpoint &&
      this.o.onAuthorizationUrl &&
      cardAllows(s, 'authorizationCode'),
    );
    let flow: string;
    let grantType: string | undefined;
    let picked: { client: OAuthClient; reused: boolean } | undefined;
    let res: oauth.TokenEndpointResponse;
    try {
      if (clientId && clientSecret) {
        flow = 'client credentials';
        res = await clientCredentialsGrant(ctx, { clientId, clientSecret }, scopes);
        picked = { client: { clientId, clientSecret }, reused: false };
      } else if (canDevice && !(this.o.display && canCode)) {
        [flow, grantType] = ['device code', DEVICE_GRANT];
        picked = await this.publicClient(ctx, grantType, []);
        res = await deviceCodeGrant(ctx, picked.client, scopes, {
          onPrompt: this.o.onDevicePrompt!,
          secondMs: this.o.secondMs,
        });
      } else if (canCode) {
        [flow, grantType] = ['authorization code', 'authorization_code'];
        const redirectUri = this.o.redirectUri ?? OAUTH_REDIRECT_URI;
        picked = await this.publicClient(ctx, grantType, [redirectUri]);
        res = await authorizationCodeGrant(ctx, picked.client, scopes, {
          onAuthorizationUrl: this.o.onAuthorizationUrl!,
          redirectUri,
        });
      } else {
        throw new A2AClientError(
          A2AClientErrorCode.OAuth,
          `the card asks for OAuth (scheme "${s.name}") and no flow can run: set SUPERQODE_A2A_OAUTH_CLIENT_ID and SUPERQODE_A2A_OAUTH_CLIENT_SECRET for client credentials, or use an authorization server with a device or authorization endpoint`,
        );
      }
    } catch (err) {
      const code = ((err as A2AClientError).cause as { error?: string } | undefined)?.error;
      if (!(retry && picked?.reused && grantType && code === 'invalid_client')) throw err;
      ctx.trace?.note(
        'oauth',
        `the registered client was refused (invalid_client): registering anew`,
      );
      this.o.store.deleteClient(ctx.as.issuer, grantType);
      return this.obtain(run, ctx, false);
    }
    ctx.trace?.note('oauth', `obtained an access token (${flow})`);
    const tokens = toStored(
      res,
      picked.client,
      ctx.as.issuer,
      flow,
      undefined,
      picked.client.clientId !== clientId,
    );
    this.o.store.set(run.key, tokens);
    return tokens;
  }

  /**
   * Refreshes expiring tokens. A refused grant (`invalid_grant`, …) drops them and signs in again;
   * a transient failure (no answer, 5xx, 429, unreachable metadata) keeps them, says so with the
   * HTTP status, and hands back the stored access token for the agent to judge.
   */
  private async renew(run: SchemeRun, t: StoredTokens): Promise<StoredTokens> {
    let ctx: GrantContext;
    try {
      ctx = await run.grant();
    } catch (err) {
      return this.keep(run, t, `${(err as Error).message}; keeping the stored tokens`);
    }
    if (!t.refreshToken) return this.obtain(run, ctx);
    ctx.trace?.note('oauth', 'access token expired: refreshing');
    let res: oauth.TokenEndpointResponse;
    try {
      res = await refreshGrant(ctx, this.clientFor(t), t.refreshToken);
    } catch (err) {
      const message = (err as Error).message;
      if (isTransientOAuthError(err))
        return this.keep(run, t, `${message}; keeping the stored tokens`);
      ctx.trace?.note('oauth', `${message}; obtaining new tokens`);
      this.o.store.delete(run.key);
      return this.obtain(run, ctx);
    }
    const renewed = toStored(res, this.clientFor(t), t.issuer, t.flow, t, Boolean(t.clientSecret));
    this.o.store.set(run.key, renewed);
    return renewed;
  }

  /** The stored tokens, unchanged in the store; in memory not renewed again until a 401. */
  private keep(run: SchemeRun, t: StoredTokens, line: string): StoredTokens {
    run.trace?.note('oauth', `${line}, trying the stored access token`);
    this.o.onWarning?.(`${line}, trying the stored access token`);
    return isExpiring(t) ? { ...t, expiresAt: undefined } : t;
  }
}
