import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

/** A small HTML page for the browser tab (the text is ours, never the server's). */
function page(title: string, text: string): string {
  return `<!doctype html><title>superqode: ${title}</title><p>${text}</p>`;
}

/** Constant-time comparison of the callback's `state` with the one sent. */
function sameState(got: string | null, want: string): boolean {
  const a = Buffer.from(got ?? '');
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Listens on the redirect URI's port on both loopback addresses; resolves with the first callback
 * query whose `state` matches. A callback with another `state` (a stale tab, another local
 * process) is answered 400 and does not end the sign-in. The browser is told the outcome:
 * "Signed in" only when a code arrived, the authorization server's `error` otherwise.
 * @see RFC 6749 §10.12 (CSRF, state); RFC 8252 §8.1.
 */
function waitForCallback(
  redirect: URL,
  state: string,
  timeoutMs: number,
): { params: Promise<URLSearchParams>; close: () => void } {
  const servers: Server[] = [];
  let settle: (p: URLSearchParams) => void = () => undefined;
  let fail: (e: Error) => void = () => undefined;
  const params = new Promise<URLSearchParams>(
    (resolve, reject) => ([settle, fail] = [resolve, reject]),
  );
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', redirect.origin);
    if (url.pathname !== redirect.pathname) return void res.writeHead(404).end();
    const html = (status: number, title: string, text: string): void =>
      void res
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
        .end(page(title, text));
    const q = url.searchParams;
    if (!sameState(q.get('state'), state))
      return html(
        400,
        'unknown sign-in',
        'This answer does not belong to the sign-in the terminal is waiting for (state mismatch). It was ignored.',
      );
    const error = q.get('error');
    if (error) {
      const code = error.replace(/[^\w.-]/g, '').slice(0, 64);
      html(
        400,
        'not signed in',
        `Not signed in: the authorization server answered ${code}. Return to the terminal.`,
      );
    } else if (q.get('code')) {
      html(200, 'signed in', 'Signed in. You can close this tab and return to the terminal.');
    } else return html(400, 'not signed in', 'Not signed in: the answer carries no code.');
    settle(q);
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
 * URL, hands it to `onAuthorizationUrl`, waits for the redirect on `localhost:19876` carrying the
 * `state` sent (others are ignored), checks `iss` when the server sends it, then redeems the code
 * with the verifier.
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
  const callback = waitForCallback(redirect, state, o.timeoutMs ?? 300_000);
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
