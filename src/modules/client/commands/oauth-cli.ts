import { CLIENT_ENV, clientEnv } from '../../../config/client-env';
import { DefaultOAuthProvider } from '../oauth/oauth-provider';
import { openTokenStore, type StoredTokens, type TokenStore } from '../oauth/token-store';

/** Opens the real store (keyring probe) only when a card actually declares OAuth. */
class LazyTokenStore implements TokenStore {
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
}

/**
 * The CLI's OAuth provider: client id/secret from `SUPERQODE_A2A_OAUTH_CLIENT_ID` /
 * `SUPERQODE_A2A_OAUTH_CLIENT_SECRET`, tokens in the OS keyring or `~/.superqode/a2a-oauth/`
 * (`SUPERQODE_A2A_OAUTH_STORE=keyring|file|auto`), device codes and sign-in URLs on stderr.
 */
export function cliOAuthProvider(): DefaultOAuthProvider {
  return new DefaultOAuthProvider({
    clientId: clientEnv(CLIENT_ENV.OAUTH_CLIENT_ID),
    clientSecret: clientEnv(CLIENT_ENV.OAUTH_CLIENT_SECRET),
    store: new LazyTokenStore(),
    onDevicePrompt: (p) => {
      const where = p.verificationUriComplete ?? p.verificationUri;
      process.stderr.write(
        `\nTo authorize this client, open ${where}\nand enter the code ${p.userCode} (valid ${Math.max(1, Math.round(p.expiresIn / 60))} min).\n`,
      );
    },
    onAuthorizationUrl: (url) =>
      process.stderr.write(`\nOpen this URL in a browser to sign in:\n  ${url}\n`),
  });
}
