import { CLIENT_ENV, clientEnv } from '../../../config/client-env';
import { processEnv } from '../../../config/process-env';
import { hasDisplay, openBrowser } from '../oauth/browser';
import type { OAuthClient } from '../oauth/oauth-grants';
import { DefaultOAuthProvider } from '../oauth/oauth-provider';
import { openTokenStore, type StoredTokens, type TokenStore } from '../oauth/token-store';

/** Opens the real store (keyring probe) only when a card actually declares OAuth. */
/** The configured token store (keyring or files), opened on first use. */
export class LazyTokenStore implements TokenStore {
  private store?: TokenStore;
  private get s(): TokenStore {
    this.store ??= openTokenStore(clientEnv(CLIENT_ENV.OAUTH_STORE));
    return this.store;
  }
  get kind(): string {
    return this.s.kind;
  }
  get(key: string): StoredTokens | undefined {
    return this.s.get(key);
  }
  set(key: string, tokens: StoredTokens): void {
    this.s.set(key, tokens);
  }
  delete(key: string): boolean {
    return this.s.delete(key);
  }
  getClient(issuer: string, grant: string): OAuthClient | undefined {
    return this.s.getClient(issuer, grant);
  }
  setClient(issuer: string, grant: string, client: OAuthClient): void {
    this.s.setClient(issuer, grant, client);
  }
  deleteClient(issuer: string, grant: string): void {
    this.s.deleteClient(issuer, grant);
  }
}

/**
 * The CLI's OAuth provider: client id/secret from `SUPERQODE_A2A_OAUTH_CLIENT_ID` /
 * `SUPERQODE_A2A_OAUTH_CLIENT_SECRET`, tokens in the OS keyring or `~/.superqode/a2a-oauth/`
 * (`SUPERQODE_A2A_OAUTH_STORE=keyring|file|auto`). With a display (see `hasDisplay`) the sign-in
 * URL is opened in the browser (`BROWSER`, else the platform's opener) and printed on stderr;
 * without one the device code is shown on stderr.
 */
export function cliOAuthProvider(): DefaultOAuthProvider {
  const env = processEnv();
  const display = hasDisplay(env);
  return new DefaultOAuthProvider({
    clientId: clientEnv(CLIENT_ENV.OAUTH_CLIENT_ID),
    clientSecret: clientEnv(CLIENT_ENV.OAUTH_CLIENT_SECRET),
    store: new LazyTokenStore(),
    display,
    onWarning: (line) => process.stderr.write(`warning: ${line}\n`),
    onDevicePrompt: (p) => {
      const where = p.verificationUriComplete ?? p.verificationUri;
      process.stderr.write(
        `\nTo authorize this client, open ${where}\nand enter the code ${p.userCode} (valid ${Math.max(1, Math.round(p.expiresIn / 60))} min).\n`,
      );
    },
    onAuthorizationUrl: (url) => {
      process.stderr.write(
        display
          ? `\nSign in in the browser; if it did not open, open this URL:\n  ${url}\n`
          : `\nNo display here: open this URL in a browser to sign in:\n  ${url}\n`,
      );
      if (display)
        openBrowser(url, env, (why) =>
          process.stderr.write(`warning: could not open a browser (${why})\n`),
        );
    },
  });
}
