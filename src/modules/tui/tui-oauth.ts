import { CLIENT_ENV, clientEnv } from '../../config/client-env';
import { DefaultOAuthProvider } from '../client/oauth/oauth-provider';
import { openTokenStore, type TokenStore } from '../client/oauth/token-store';

/**
 * The screen's OAuth provider: the CLI's settings (`SUPERQODE_A2A_OAUTH_CLIENT_ID`, `…_SECRET`,
 * `…_STORE`), but sign-in URLs and device codes go to the conversation pane (`say`) instead of
 * stderr, which would tear the screen. The token store opens on first use.
 */
export function tuiOAuthProvider(say: (line: string) => void): DefaultOAuthProvider {
  let store: TokenStore | undefined;
  const s = (): TokenStore => (store ??= openTokenStore(clientEnv(CLIENT_ENV.OAUTH_STORE)));
  return new DefaultOAuthProvider({
    clientId: clientEnv(CLIENT_ENV.OAUTH_CLIENT_ID),
    clientSecret: clientEnv(CLIENT_ENV.OAUTH_CLIENT_SECRET),
    store: {
      get kind() {
        return s().kind;
      },
      get: (key) => s().get(key),
      set: (key, tokens) => s().set(key, tokens),
      delete: (key) => s().delete(key),
    },
    onDevicePrompt: (p) =>
      say(
        `To authorize, open ${p.verificationUriComplete ?? p.verificationUri} and enter ${p.userCode}`,
      ),
    onAuthorizationUrl: (url) => say(`Open this URL in a browser to sign in: ${url}`),
  });
}
