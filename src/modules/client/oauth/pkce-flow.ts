import { createServer, type Server } from 'node:http';
import * as oauth from 'oauth4webapi';
import { A2AClientError, A2AClientErrorCode } from '../client.errors';
import { oauthError, requestOptions } from './auth-server';
import type { GrantContext, OAuthClient } from './oauth-grants';

/** Fixed loopback redirect URI of the authorization code flow (register it with the AS). */
export const OAUTH_REDIRECT_URI = 'http://localhost:19876/a2a/oauth/callback';

/** Authorization code flow settings. */
export interface PkceOptions {
  /** Shows the user the URL to open (the CLI prints it on stderr). */
  onAuthorizationUrl(url: string): void;
  /** Default {@link OAUTH_REDIRECT_URI}. */
  redirectUri?: string;
  /** How long to wait for the browser to come back, ms; default 300 000. */
  timeoutMs?: number;
}

const DONE_PAGE =
  '<!doctype html><title>superqode</title><p>Signed in. You can close this tab and return to the terminal.</p>';

/** Listens on the redirect URI's port on both loopback addresses; resolves with the callback query. */
function waitForCallback(
  redirect: URL,
  timeoutMs: number,
): { params: Promise<URLSearchParams>; close: () => void } {
  const servers: Server[] = [];
  let settle: (p: URLSearchParams) => void = () => undefined;
  let fail: (e: Error) => void = () => undefined;
  const params = new Promise<URLSearchParams>(
    (resolve, reject) => ([settle, fail] = [resolve, reject]),
  );
  const handler = (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ): void => {
    const url = new URL(req.url ?? '/', redirect.origin);
    if (url.pathname !== redirect.pathname) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(DONE_PAGE);
    settle(url.searchParams);
  };
  for (const host of ['127.0.0.1', '::1']) {
    const s = createServer(handler);
    s.on('error', (err: NodeJS.ErrnoException) => {
      if (host === '127.0.0.1')
        fail(
          new A2AClientError(
            A2AClientErrorCode.OAuth,
            `cannot listen on ${redirect.origin} for the OAuth redirect (${err.code})`,
          ),
        );
    });
    s.listen(Number(redirect.port || 80), host);
    servers.push(s);
  }
  const timer = setTimeout(
    () => fail(new A2AClientError(A2AClientErrorCode.OAuth, 'no OAuth redirect arrived in time')),
    timeoutMs,
  );
  return {
    params,
    close: () => {
      clearTimeout(timer);
      for (const s of servers) {
        s.closeAllConnections();
        s.close();
      }
    },
  };
}

/**
 * Authorization code grant with PKCE (S256) and a loopback redirect: builds the authorization
 * URL, hands it to `onAuthorizationUrl`, waits for the redirect on `localhost:19876`, checks
 * `state` (and `iss` when the server sends it), then redeems the code with the verifier.
 * @throws {A2AClientError} `OAUTH`: no authorization endpoint, port busy, timeout, user denial,
 *   or a refused code exchange.
 * @see RFC 7636 (PKCE); RFC 8252 §7.3 (loopback redirect); RFC 9207 (iss).
 */
export async function authorizationCodeGrant(
  ctx: GrantContext,
  client: OAuthClient,
  scopes: string[],
  o: PkceOptions,
): Promise<oauth.TokenEndpointResponse> {
  if (!ctx.as.authorization_endpoint)
    throw new A2AClientError(
      A2AClientErrorCode.OAuth,
      'the authorization server has no authorization endpoint',
    );
  const c: oauth.Client = { client_id: client.clientId };
  const auth = client.clientSecret ? oauth.ClientSecretBasic(client.clientSecret) : oauth.None();
  const redirect = new URL(o.redirectUri ?? OAUTH_REDIRECT_URI);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(ctx.as.authorization_endpoint);
  const q = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: redirect.href,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...(scopes.length ? { scope: scopes.join(' ') } : {}),
  };
  for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
  const callback = waitForCallback(redirect, o.timeoutMs ?? 300_000);
  try {
    o.onAuthorizationUrl(url.href);
    const params = await callback.params;
    const validated = oauth.validateAuthResponse(ctx.as, c, params, state);
    const res = await oauth.authorizationCodeGrantRequest(
      ctx.as,
      c,
      auth,
      validated,
      redirect.href,
      verifier,
      requestOptions(ctx.as.token_endpoint, ctx.fetchImpl),
    );
    return await oauth.processAuthorizationCodeResponse(ctx.as, c, res);
  } catch (err) {
    throw oauthError('authorization code grant', err);
  } finally {
    callback.close();
  }
}
