import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A2AClient } from '../../src/modules/client/a2a-client';
import { A2AClientErrorCode } from '../../src/modules/client/client.errors';
import { ClientTrace, formatTraceEntry } from '../../src/modules/client/client-trace';
import type { DevicePrompt } from '../../src/modules/client/oauth/oauth-grants';
import {
  DefaultOAuthProvider,
  OAuthProviderOptions,
} from '../../src/modules/client/oauth/oauth-provider';
import { FileTokenStore } from '../../src/modules/client/oauth/token-store';
import { viewResult } from '../../src/modules/client/result-view';
import { aV1Card, FakeAgent, startFakeAgent } from '../fakes/client-fake-agent';
import { startFakeDeviceAs } from '../fakes/oidc-fake-as';
import { OidcServer, startOidcServer } from '../fakes/oidc-process';
import { requireBuiltCli, superqode, tempHome } from '../fakes/client-cli';

const traced = (t: ClientTrace): string => t.entries.map(formatTraceEntry).join('\n');
/** Token files (registered clients, `client-*.json`, are kept across logouts). */
const tokenFiles = (dir: string): string[] =>
  readdirSync(dir).filter((f) => !f.startsWith('client-'));

describe('A2AClient OAuth against oidc-provider in a child process (RFC 6749, 8628, 7636, 7591, 7009)', () => {
  let oidc: OidcServer;
  let agent: FakeAgent;
  let store: FileTokenStore;
  const bearerOf = (h: string | string[] | undefined) => String(h ?? '').replace(/^Bearer /, '');

  beforeAll(async () => {
    oidc = await startOidcServer();
    agent = await startFakeAgent({
      card: (b) =>
        aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], {
          securitySchemes: {
            oauth: {
              oauth2SecurityScheme: {
                oauth2MetadataUrl: `${oidc.issuer}/.well-known/openid-configuration`,
                flows: {
                  deviceCode: {
                    deviceAuthorizationUrl: `${oidc.issuer}/device/auth`,
                    tokenUrl: `${oidc.issuer}/token`,
                    scopes: { openid: 'sign in', offline_access: 'refresh' },
                  },
                },
              },
            },
          },
          securityRequirements: [{ schemes: { oauth: { list: ['openid'] } } }],
        }),
      auth: (r) => oidc.isActive(bearerOf(r.headers.authorization)),
    });
  });
  afterAll(async () => {
    await agent.close();
    await oidc.stop();
  });
  beforeEach(() => {
    store = new FileTokenStore(join(mkdtempSync(join(tmpdir(), 'sq-oauth-')), 'a2a-oauth'));
  });

  const provider = (o: Partial<OAuthProviderOptions> = {}) =>
    new DefaultOAuthProvider({ store, secondMs: 20, ...o });
  const approving = (): ((p: DevicePrompt) => void) => (p) => void oidc.approve(p.userCode);

  it('client credentials (client id and secret configured): the agent accepts the token; tokens stored 0600', async () => {
    const trace = new ClientTrace();
    const client = await A2AClient.connect(agent.url, {
      trace,
      oauth: provider({ clientId: 'cc-client', clientSecret: 'cc-secret' }),
    });
    expect(viewResult(await client.send('hi')).state).toBe('completed');
    expect(client.auth.lines[0]).toMatch(
      /oauth: OAuth 2 .* → sending Authorization: Bearer \[REDACTED\] \(token from OAuth client credentials\)/,
    );
    expect(traced(trace)).toMatch(/\[oauth\] → POST .*\/token/);
    expect(traced(trace)).not.toMatch(/cc-secret|Y2MtY2xpZW50OmNjLXNlY3JldA/);
    const files = readdirSync(store.dir);
    expect(files).toHaveLength(1);
    expect(statSync(join(store.dir, files[0])).mode & 0o777).toBe(0o600);
    expect(statSync(store.dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(store.dir, files[0]), 'utf8')).not.toContain('cc-secret');
  });

  it('a scheme naming only a token URL: metadata found by discovery at its origin (RFC 8414, then OIDC), so logout can revoke', async () => {
    const ccOnly = await startFakeAgent({
      card: (b) =>
        aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], {
          securitySchemes: {
            cc: {
              oauth2SecurityScheme: {
                flows: { clientCredentials: { tokenUrl: `${oidc.issuer}/token`, scopes: {} } },
              },
            },
          },
        }),
      auth: (r) => oidc.isActive(bearerOf(r.headers.authorization)),
    });
    try {
      const trace = new ClientTrace();
      const p = provider({ clientId: 'cc-client', clientSecret: 'cc-secret' });
      const client = await A2AClient.connect(ccOnly.url, { trace, oauth: p });
      expect(viewResult(await client.send('hi')).state).toBe('completed');
      expect(traced(trace)).toMatch(
        /\[oauth\] → GET .*\/\.well-known\/oauth-authorization-server\n.*\n.*\n\[oauth\] ← 200 OK/,
      );
      const token = bearerOf(
        ccOnly.requests.find((r) => r.method === 'POST')?.headers.authorization,
      );
      expect(
        (await p.logout(client.discovery.cardUrl, client.securitySchemes, fetch)).lines,
      ).toEqual([expect.stringMatching(/^cc: revoked at /)]);
      expect(await oidc.isActive(token)).toBe(false);
    } finally {
      await ccOnly.close();
    }
  });

  it('device code with dynamic registration at the AS (never the agent), then stored tokens are reused', async () => {
    const trace = new ClientTrace();
    const prompts: DevicePrompt[] = [];
    const onDevicePrompt = (p: DevicePrompt): void => {
      prompts.push(p);
      approving()(p);
    };
    const client = await A2AClient.connect(agent.url, {
      trace,
      oauth: provider({ onDevicePrompt }),
    });
    expect(viewResult(await client.send('hi')).state).toBe('completed');
    expect(prompts[0]).toMatchObject({
      verificationUri: `${oidc.issuer}/device`,
      userCode: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/),
    });
    expect(traced(trace)).toMatch(new RegExp(`registered client \\S+ at ${oidc.issuer}/reg`));
    expect(agent.requests.some((r) => r.path === '/reg')).toBe(false);
    const again = new ClientTrace();
    const second = await A2AClient.connect(agent.url, {
      trace: again,
      oauth: provider({
        onDevicePrompt: () => {
          throw new Error('must not prompt again');
        },
      }),
    });
    expect(traced(again)).toMatch(/using stored tokens \(file, device code\)/);
    expect(viewResult(await second.send('hi')).state).toBe('completed');
  });

  it('an expired access token is refreshed with the refresh token (RFC 6749 §6)', async () => {
    await A2AClient.connect(agent.url, { oauth: provider({ onDevicePrompt: approving() }) });
    const file = join(store.dir, tokenFiles(store.dir)[0]);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      tokens: { accessToken: string; refreshToken: string; expiresAt: number };
    };
    expect(saved.tokens.refreshToken).toBeTruthy();
    writeFileSync(file, JSON.stringify({ ...saved, tokens: { ...saved.tokens, expiresAt: 0 } }));
    const trace = new ClientTrace();
    const client = await A2AClient.connect(agent.url, { trace, oauth: provider() });
    expect(traced(trace)).toMatch(/access token expired: refreshing/);
    expect(viewResult(await client.send('hi')).state).toBe('completed');
    const renewed = JSON.parse(readFileSync(file, 'utf8')) as { tokens: { accessToken: string } };
    expect(renewed.tokens.accessToken).not.toBe(saved.tokens.accessToken);
  });

  it('a 401 for a token revoked at the AS: the session renews (refresh, else a new sign-in) and retries once', async () => {
    await A2AClient.connect(agent.url, { oauth: provider({ onDevicePrompt: approving() }) });
    const file = join(store.dir, tokenFiles(store.dir)[0]);
    const { tokens } = JSON.parse(readFileSync(file, 'utf8')) as {
      tokens: { accessToken: string };
    };
    const revoke = await fetch(`${oidc.issuer}/token/revocation`, {
      method: 'POST',
      body: new URLSearchParams({
        token: tokens.accessToken,
        client_id: JSON.parse(readFileSync(file, 'utf8')).tokens.clientId,
      }),
    });
    expect(revoke.status).toBe(200);
    expect(await oidc.isActive(tokens.accessToken)).toBe(false);
    const trace = new ClientTrace();
    const client = await A2AClient.connect(agent.url, {
      trace,
      oauth: provider({ onDevicePrompt: approving() }),
    });
    expect(viewResult(await client.send('hi')).state).toBe('completed');
    // oidc-provider revokes the whole grant with the access token, so the refresh fails too.
    expect(traced(trace)).toMatch(
      /401: retrying once with renewed credentials[\s\S]*refreshing[\s\S]*invalid_grant.*obtaining new tokens[\s\S]*obtained an access token \(device code\)/,
    );
  });

  it('logout revokes the refresh and access tokens (RFC 7009) and deletes them', async () => {
    const client = await A2AClient.connect(agent.url, {
      oauth: provider({ onDevicePrompt: approving() }),
    });
    const file = join(store.dir, tokenFiles(store.dir)[0]);
    const { tokens } = JSON.parse(readFileSync(file, 'utf8')) as {
      tokens: { accessToken: string; refreshToken: string };
    };
    expect(await oidc.isActive(tokens.refreshToken)).toBe(true);
    const { lines } = await provider().logout(
      client.discovery.cardUrl,
      client.securitySchemes,
      fetch,
    );
    expect(lines).toEqual([
      expect.stringMatching(
        /^oauth: revoked at .*\/token\/revocation; stored tokens deleted \(file\)$/,
      ),
    ]);
    expect(await oidc.isActive(tokens.refreshToken)).toBe(false);
    expect(await oidc.isActive(tokens.accessToken)).toBe(false);
    expect(tokenFiles(store.dir)).toEqual([]);
  });

  it('authorization code + PKCE S256 with the fixed loopback redirect', async () => {
    const onAuthorizationUrl = (url: string): void => void browse(url);
    const noDevice = await startFakeAgent({
      card: (b) =>
        aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], {
          securitySchemes: {
            oidc: {
              openIdConnectSecurityScheme: {
                openIdConnectUrl: `${oidc.issuer}/.well-known/openid-configuration`,
              },
            },
          },
        }),
      auth: (r) => oidc.isActive(bearerOf(r.headers.authorization)),
    });
    try {
      const client = await A2AClient.connect(noDevice.url, {
        oauth: new DefaultOAuthProvider({ store, clientId: 'pkce-client', onAuthorizationUrl }),
      });
      expect(client.auth.usedScheme).toBe('oidc');
      expect(viewResult(await client.send('hi')).state).toBe('completed');
    } finally {
      await noDevice.close();
    }
  });

  it('CLI: client credentials from the environment, tokens in ~/.superqode/a2a-oauth (0600), no secret printed; --logout revokes', async () => {
    requireBuiltCli();
    const home = tempHome();
    const env = {
      SUPERQODE_A2A_OAUTH_CLIENT_ID: 'cc-client',
      SUPERQODE_A2A_OAUTH_CLIENT_SECRET: 'cc-secret',
      SUPERQODE_A2A_OAUTH_STORE: 'file',
    };
    const r = await superqode(['connect', 'a2a', agent.url, '--inspect'], { home, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\[oauth\] · obtained an access token \(client credentials\)/);
    expect(r.stdout).toMatch(/task: +task-1 completed/);
    const dir = join(home, '.superqode', 'a2a-oauth');
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const { tokens } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      tokens: { accessToken: string };
    };
    for (const secret of [
      'cc-secret',
      tokens.accessToken,
      Buffer.from('cc-client:cc-secret').toString('base64'),
    ])
      expect(r.all).not.toContain(secret);
    const out = await superqode(['connect', 'a2a', agent.url, '--logout'], { home, env });
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/oauth: revoked at .*; stored tokens deleted \(file\)/);
    expect(await oidc.isActive(tokens.accessToken)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('nothing configured and no interactive flow: a clear OAUTH error', async () => {
    await expect(A2AClient.connect(agent.url, { oauth: provider() })).rejects.toMatchObject({
      code: A2AClientErrorCode.OAuth,
      message: expect.stringMatching(/SUPERQODE_A2A_OAUTH_CLIENT_ID/),
    });
  });
});

describe('device code polling (RFC 8628 §3.5)', () => {
  it('waits on authorization_pending and adds 5 s to the interval on slow_down', async () => {
    const as = await startFakeDeviceAs(['authorization_pending', 'slow_down']);
    const agent = await startFakeAgent({
      card: (b) =>
        aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], {
          securitySchemes: {
            o: {
              oauth2SecurityScheme: {
                flows: {
                  deviceCode: {
                    deviceAuthorizationUrl: `${as.url}/device`,
                    tokenUrl: `${as.url}/token`,
                    scopes: {},
                  },
                },
              },
            },
          },
        }),
      auth: (r) => r.headers.authorization === 'Bearer device-access-token-123',
    });
    try {
      const store = new FileTokenStore(join(mkdtempSync(join(tmpdir(), 'sq-oauth-')), 'a2a-oauth'));
      const client = await A2AClient.connect(agent.url, {
        oauth: new DefaultOAuthProvider({
          store,
          clientId: 'dev',
          secondMs: 25,
          onDevicePrompt: () => undefined,
        }),
      });
      expect(viewResult(await client.send('hi')).state).toBe('completed');
      const gaps = as.polls.slice(1).map((t, i) => t - as.polls[i]);
      expect(as.polls).toHaveLength(3);
      expect(gaps[0]).toBeGreaterThanOrEqual(20); // interval 1 s (25 ms here) after authorization_pending
      expect(gaps[1]).toBeGreaterThanOrEqual(6 * 25 - 5); // 1 + 5 s after slow_down
    } finally {
      await agent.close();
      await as.close();
    }
  });
});

/** A minimal browser: follows redirects by hand, keeping cookies per origin, until the loopback callback. */
async function browse(start: string): Promise<void> {
  const jar = new Map<string, string[]>();
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    const origin = new URL(url).origin;
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: (jar.get(origin) ?? []).join('; ') },
    });
    const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
    jar.set(origin, [
      ...(jar.get(origin) ?? []).filter(
        (c) => !cookies.some((n) => n.split('=')[0] === c.split('=')[0]),
      ),
      ...cookies,
    ]);
    const location = res.headers.get('location');
    await res.text();
    if (!location) return;
    url = new URL(location, url).href;
  }
}
