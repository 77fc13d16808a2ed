import { CLIENT_ENV, clientEnv } from '../../config/client-env';
import { DefaultOAuthProvider } from '../client/oauth/oauth-provider';
import { LazyTokenStore } from '../client/commands/oauth-cli';

/**
 * The screen's OAuth provider: the CLI's settings (`SUPERQODE_A2A_OAUTH_CLIENT_ID`, `…_SECRET`,
 * `…_STORE`), but sign-in URLs and device codes go to the conversation pane (`say`) instead of
 * stderr, which would tear the screen. The token store opens on first use.
 */
export function tuiOAuthProvider(say: (line: string) => void): DefaultOAuthProvider {
  return new DefaultOAuthProvider({
    clientId: clientEnv(CLIENT_ENV.OAUTH_CLIENT_ID),
    clientSecret: clientEnv(CLIENT_ENV.OAUTH_CLIENT_SECRET),
    store: new LazyTokenStore(),
    onDevicePrompt: (p) =>
      say(
        `To authorize, open ${p.verificationUriComplete ?? p.verificationUri} and enter ${p.userCode}`,
      ),
    onAuthorizationUrl: (url) => say(`Open this URL in a browser to sign in: ${url}`),
  });
}
