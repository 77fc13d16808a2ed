import * as oauth from 'oauth4webapi';
import { A2AClientError, A2AClientErrorCode } from '../client.errors';
import type { ClientTrace } from '../client-trace';
import { oauthError, requestOptions, type AuthServer } from './auth-server';

/** The OAuth client this CLI acts as. */
export interface OAuthClient {
  clientId: string;
  /** Confidential clients only (sent with HTTP Basic, RFC 6749 §2.3.1). */
  clientSecret?: string;
}

/** Where and how grants are requested. */
export interface GrantContext {
  as: AuthServer;
  /** Bounded, traced fetch for the authorization server. */
  fetchImpl: typeof fetch;
  trace?: ClientTrace;
}

/** What the user must do to approve a device (RFC 8628 §3.3). */
export interface DevicePrompt {
  verificationUri: string;
  verificationUriComplete?: string;
  userCode: string;
  /** Seconds the code stays valid. */
  expiresIn: number;
}

/** Device flow settings. */
export interface DeviceFlowOptions {
  /** Shows the user where to go and what to type (the CLI prints it on stderr). */
  onPrompt(prompt: DevicePrompt): void;
  /** Length of one protocol second in ms (a clock seam for tests); default 1000. */
  secondMs?: number;
}

function parts(client: OAuthClient): [oauth.Client, oauth.ClientAuth] {
  return [
    { client_id: client.clientId },
    client.clientSecret ? oauth.ClientSecretBasic(client.clientSecret) : oauth.None(),
  ];
}

function scopeParams(scopes: string[]): Record<string, string> {
  return scopes.length ? { scope: scopes.join(' ') } : {};
}

/**
 * Client credentials grant.
 * @throws {A2AClientError} `OAUTH` with the server's `error` (e.g. `invalid_client`).
 * @see RFC 6749 §4.4.
 */
export async function clientCredentialsGrant(
  ctx: GrantContext,
  client: OAuthClient,
  scopes: string[],
): Promise<oauth.TokenEndpointResponse> {
  const [c, auth] = parts(client);
  try {
    const res = await oauth.clientCredentialsGrantRequest(
      ctx.as,
      c,
      auth,
      scopeParams(scopes),
      requestOptions(ctx.as.token_endpoint, ctx.fetchImpl),
    );
    return await oauth.processClientCredentialsResponse(ctx.as, c, res);
  } catch (err) {
    throw oauthError('client credentials grant', err);
  }
}

/**
 * Refresh token grant.
 * @throws {A2AClientError} `OAUTH` (e.g. `invalid_grant` for a revoked or expired refresh token).
 * @see RFC 6749 §6.
 */
export async function refreshGrant(
  ctx: GrantContext,
  client: OAuthClient,
  refreshToken: string,
): Promise<oauth.TokenEndpointResponse> {
  const [c, auth] = parts(client);
  try {
    const res = await oauth.refreshTokenGrantRequest(
      ctx.as,
      c,
      auth,
      refreshToken,
      requestOptions(ctx.as.token_endpoint, ctx.fetchImpl),
    );
    return await oauth.processRefreshTokenResponse(ctx.as, c, res);
  } catch (err) {
    throw oauthError('refresh', err);
  }
}

/**
 * Token revocation.
 * @throws {A2AClientError} `OAUTH` when the server has no revocation endpoint or refuses.
 * @see RFC 7009 §2.
 */
export async function revokeToken(
  ctx: GrantContext,
  client: OAuthClient,
  token: string,
  hint: 'access_token' | 'refresh_token',
): Promise<void> {
  if (!ctx.as.revocation_endpoint)
    throw new A2AClientError(
      A2AClientErrorCode.OAuth,
      'the authorization server has no revocation endpoint',
    );
  const [c, auth] = parts(client);
  try {
    const res = await oauth.revocationRequest(ctx.as, c, auth, token, {
      ...requestOptions(ctx.as.revocation_endpoint, ctx.fetchImpl),
      additionalParameters: { token_type_hint: hint },
    });
    await oauth.processRevocationResponse(res);
  } catch (err) {
    throw oauthError('revocation', err);
  }
}

/**
 * Dynamic client registration at the authorization server's `registration_endpoint` (never the
 * agent's origin): a public native client with the given grant types and redirect URIs.
 * @throws {A2AClientError} `OAUTH`: no registration endpoint, or the server refused.
 * @see RFC 7591 §3; RFC 8252 §8.4 (native apps are public clients).
 */
export async function registerClient(
  ctx: GrantContext,
  grantTypes: string[],
  redirectUris: string[],
): Promise<OAuthClient> {
  if (!ctx.as.registration_endpoint) {
    throw new A2AClientError(
      A2AClientErrorCode.OAuth,
      `no client id: set SUPERQODE_A2A_OAUTH_CLIENT_ID (the authorization server offers no dynamic registration)`,
    );
  }
  const metadata = {
    client_name: 'superqode A2A client',
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    grant_types: grantTypes,
    redirect_uris: redirectUris,
    response_types: redirectUris.length ? ['code'] : [],
  };
  try {
    const res = await oauth.dynamicClientRegistrationRequest(
      ctx.as,
      metadata,
      requestOptions(ctx.as.registration_endpoint, ctx.fetchImpl),
    );
    const registered = await oauth.processDynamicClientRegistrationResponse(res);
    ctx.trace?.note(
      'oauth',
      `registered client ${registered.client_id} at ${ctx.as.registration_endpoint}`,
    );
    return {
      clientId: registered.client_id,
      clientSecret:
        typeof registered.client_secret === 'string' ? registered.client_secret : undefined,
    };
  } catch (err) {
    throw oauthError('dynamic client registration', err);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Device authorization grant: asks for a user code, shows it through `onPrompt`, then polls the
 * token endpoint every `interval` seconds (default 5), adding 5 s on each `slow_down`, until the
 * user approves, denies or the code expires.
 * @throws {A2AClientError} `OAUTH`: `access_denied`, `expired_token`, or any other error.
 * @see RFC 8628 §3.1-3.5.
 */
export async function deviceCodeGrant(
  ctx: GrantContext,
  client: OAuthClient,
  scopes: string[],
  o: DeviceFlowOptions,
): Promise<oauth.TokenEndpointResponse> {
  const [c, auth] = parts(client);
  const second = o.secondMs ?? 1000;
  let dev: oauth.DeviceAuthorizationResponse;
  try {
    const res = await oauth.deviceAuthorizationRequest(
      ctx.as,
      c,
      auth,
      scopeParams(scopes),
      requestOptions(ctx.as.device_authorization_endpoint, ctx.fetchImpl),
    );
    dev = await oauth.processDeviceAuthorizationResponse(ctx.as, c, res);
  } catch (err) {
    throw oauthError('device authorization', err);
  }
  o.onPrompt({
    verificationUri: dev.verification_uri,
    verificationUriComplete: dev.verification_uri_complete,
    userCode: dev.user_code,
    expiresIn: dev.expires_in,
  });
  let interval = dev.interval ?? 5;
  const deadline = Date.now() + dev.expires_in * second;
  for (;;) {
    await sleep(interval * second);
    if (Date.now() > deadline)
      throw new A2AClientError(
        A2AClientErrorCode.OAuth,
        'OAuth device code expired before it was approved',
      );
    try {
      const res = await oauth.deviceCodeGrantRequest(
        ctx.as,
        c,
        auth,
        dev.device_code,
        requestOptions(ctx.as.token_endpoint, ctx.fetchImpl),
      );
      return await oauth.processDeviceCodeResponse(ctx.as, c, res);
    } catch (err) {
      const code = (err as { error?: string }).error;
      if (code === 'authorization_pending') continue;
      if (code === 'slow_down') {
        interval += 5;
        ctx.trace?.note('oauth', `slow_down: polling every ${interval} s from now on`);
        continue;
      }
      throw oauthError('device code grant', err);
    }
  }
}
