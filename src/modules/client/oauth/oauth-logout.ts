import type { CardScheme } from '../security-schemes';
import { authServerFor } from './auth-server';
import { revokeToken, type GrantContext, type OAuthClient } from './oauth-grants';
import { tokenKey, type StoredTokens, type TokenStore } from './token-store';

/** What `--logout` did: one line per scheme; `ok` false when a revocation failed. */
export interface LogoutReport {
  lines: string[];
  ok: boolean;
}

/** What logout needs from the provider. */
export interface LogoutDeps {
  store: TokenStore;
  /** The client the tokens were issued to, with its secret when one is known. */
  clientFor(t: StoredTokens): OAuthClient;
}

async function revokeAll(
  deps: LogoutDeps,
  s: CardScheme,
  t: StoredTokens,
  fetchImpl: typeof fetch,
): Promise<string> {
  const ctx: GrantContext = { as: await authServerFor(s, fetchImpl), fetchImpl };
  const client = deps.clientFor(t);
  if (t.refreshToken) await revokeToken(ctx, client, t.refreshToken, 'refresh_token');
  await revokeToken(ctx, client, t.accessToken, 'access_token');
  return `revoked at ${ctx.as.revocation_endpoint}`;
}

/**
 * Revokes (refresh token, then access token) and deletes the stored tokens of every OAuth 2 /
 * OIDC scheme of a card. Tokens are deleted locally even when revocation fails (the user asked
 * to sign out here); the report then says they stay valid at the server until they expire.
 * @see RFC 7009 §2.
 */
export async function logoutSchemes(
  deps: LogoutDeps,
  cardUrl: string,
  schemes: CardScheme[],
  fetchImpl: typeof fetch,
): Promise<LogoutReport> {
  const oauthSchemes = schemes.filter((s) => s.kind === 'oauth2' || s.kind === 'openIdConnect');
  if (!oauthSchemes.length)
    return {
      lines: ['the card declares no OAuth 2 / OpenID Connect scheme: nothing to log out'],
      ok: true,
    };
  const lines: string[] = [];
  let ok = true;
  for (const s of oauthSchemes) {
    const key = tokenKey(cardUrl, s.name);
    const t = deps.store.get(key);
    if (!t) {
      lines.push(`${s.name}: no stored tokens`);
      continue;
    }
    const revoked = await revokeAll(deps, s, t, fetchImpl).catch((err: Error) => {
      ok = false;
      return `revocation failed (${err.message}); the tokens stay valid at the authorization server until they expire`;
    });
    deps.store.delete(key);
    lines.push(`${s.name}: ${revoked}; stored tokens deleted (${deps.store.kind})`);
  }
  return { lines, ok };
}
