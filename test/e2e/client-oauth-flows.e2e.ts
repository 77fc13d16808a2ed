import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
import { CLI, requireBuiltCli, superqode, tempHome } from '../fakes/client-cli';
import { aV1Card, FakeAgent, SeenRequest, startFakeAgent } from '../fakes/client-fake-agent';
import { FlakyProxy, startFlakyProxy } from '../fakes/flaky-proxy';
import { OidcServer, startOidcServer } from '../fakes/oidc-process';

const traced = (t: ClientTrace): string => t.entries.map(formatTraceEntry).join('\n');
const bearerOf = (r: SeenRequest): string =>
  String(r.headers.authorization ?? '').replace(/^Bearer /, '');
const LIB_REDIRECT = 'http://localhost:19877/a2a/oauth/callback';

describe('client OAuth as users meet it, against oidc-provider (#17)', () => {
  let oidc: OidcServer;
  let proxy: FlakyProxy;
  let store: FileTokenStore;
  const agents: FakeAgent[] = [];

  beforeAll(async () => {
    oidc = await startOidcServer();
    proxy = await startFlakyProxy(oidc.issuer);
  });
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.close()));
    await proxy.close();
    await oidc.stop();
  });
  beforeEach(() => {
    store = new FileTokenStore(join(mkdtempSync(join(tmpdir(), 'sq-oauth-')), 'a2a-oauth'));
    proxy.failing = false;
  });

  /** An agent whose card (mutable through `scheme`) declares one scheme and requires `scopes`. */
  async function agent(
    scheme: () => Record<string, unknown>,
    scopes: string[],
    needScope = scopes.find((s) => s !== 'openid'),
  ): Promise<FakeAgent> {
    const a = await startFakeAgent({
      card: (b) =>
        aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], {
          securitySchemes: { sso: scheme() },
          securityRequirements: [{ schemes: { sso: { list: scopes } } }],
        }),
      auth: async (r) => {
        if (!needScope) return oidc.isActive(bearerOf(r));
        return (await oidc.scopeOf(bearerOf(r))).split(' ').includes(needScope);
      },
    });
    agents.push(a);
    return a;
  }
  const oidcScheme = (url = `${oidc.issuer}/.well-known/openid-configuration`) => ({
    openIdConnectSecurityScheme: { openIdConnectUrl: url },
  });
  const deviceScheme = (tokenUrl = `${oidc.issuer}/token`, metadata = oidc.issuer) => ({
    oauth2SecurityScheme: {
      oauth2MetadataUrl: `${metadata}/.well-known/openid-configuration`,
      flows: {
        deviceCode: {
          deviceAuthorizationUrl: `${oidc.issuer}/device/auth`,
          tokenUrl,
          scopes: { 'a2a:call': 'call', 'a2a:admin': 'administer', offline_access: 'refresh' },
        },
      },
    },
  });
  const provider = (o: Partial<OAuthProviderOptions> = {}) =>
    new DefaultOAuthProvider({ store, secondMs: 20, ...o });
  const approving = (p: DevicePrompt): void => void oidc.approve(p.userCode);
  const storedFile = (): string =>
    join(store.dir, readdirSync(store.dir).filter((f) => !f.startsWith('client-'))[0]);

  it('OpenID Connect: requests openid plus the scopes the card requires, so the agent accepts the token', async () => {
    const a = await agent(() => oidcScheme(), ['openid', 'a2a:call']);
    const client = await A2AClient.connect(a.url, {
      oauth: provider({ onDevicePrompt: approving }),
    });
    expect(viewResult(await client.send('hi')).state).toBe('completed');
    const token = bearerOf(a.requests.find((r) => r.method === 'POST')!);
    expect((await oidc.scopeOf(token)).split(' ')).toContain('a2a:call');
  });

  it('OAuth 2: requests only the scopes the card requires, not every scope the flow lists', async () => {
    const a = await agent(() => deviceScheme(), ['a2a:call']);
    const client = await A2AClient.connect(a.url, {
      oauth: provider({ onDevicePrompt: approving }),
    });
    expect(viewResult(await client.send('hi')).state).toBe('completed');
    const token = bearerOf(a.requests.find((r) => r.method === 'POST')!);
    expect(await oidc.scopeOf(token)).toBe('a2a:call');
  });

  it('a transient refresh failure (503) keeps the tokens, names the status, and tries the stored access token', async () => {
    const a = await agent(() => deviceScheme(`${proxy.url}/token`), ['a2a:call']);
    await A2AClient.connect(a.url, { oauth: provider({ onDevicePrompt: approving }) });
    const file = storedFile();
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      tokens: { accessToken: string; refreshToken: string; expiresAt: number };
    };
    writeFileSync(file, JSON.stringify({ ...saved, tokens: { ...saved.tokens, expiresAt: 0 } }));
    proxy.failing = true;
    const trace = new ClientTrace();
    const warnings: string[] = [];
    const client = await A2AClient.connect(a.url, {
      trace,
      oauth: provider({ onWarning: (w) => warnings.push(w) }),
    });
    expect(viewResult(await client.send('hi')).state).toBe('completed');
    expect(proxy.refused).toContain('/token');
    expect(warnings[0]).toMatch(
      /^OAuth refresh failed \(HTTP 503 Service Unavailable\); keeping the stored tokens, trying the stored access token$/,
    );
    expect(traced(trace)).toMatch(/HTTP 503/);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { tokens: { refreshToken: string } };
    expect(kept.tokens.refreshToken).toBe(saved.tokens.refreshToken);
  });

  it('authorization server metadata unreachable: the stored access token is tried (and accepted)', async () => {
    let metadata = oidc.issuer;
    const a = await agent(() => deviceScheme(`${oidc.issuer}/token`, metadata), ['a2a:call']);
    await A2AClient.connect(a.url, { oauth: provider({ onDevicePrompt: approving }) });
    metadata = proxy.url;
    proxy.failing = true;
    const trace = new ClientTrace();
    const client = await A2AClient.connect(a.url, { trace, oauth: provider() });
    expect(traced(trace)).toMatch(
      /authorization server metadata at .* failed \(HTTP 503 Service Unavailable\); trying the stored access token/,
    );
    expect(viewResult(await client.send('hi')).state).toBe('completed');
  });

  it('a dynamically registered client is stored and reused for the same authorization server', async () => {
    const first = await agent(() => oidcScheme(), ['openid', 'a2a:call']);
    const second = await agent(() => deviceScheme(), ['a2a:call']);
    const t1 = new ClientTrace();
    await A2AClient.connect(first.url, {
      trace: t1,
      oauth: provider({ onDevicePrompt: approving }),
    });
    const registered = /registered client (\S+) at/.exec(traced(t1))?.[1];
    expect(registered).toBeTruthy();
    const t2 = new ClientTrace();
    const c2 = await A2AClient.connect(second.url, {
      trace: t2,
      oauth: provider({ onDevicePrompt: approving }),
    });
    expect(viewResult(await c2.send('hi')).state).toBe('completed');
    expect(traced(t2)).toContain(`using client ${registered} registered at ${oidc.issuer}`);
    expect(traced(t2)).not.toMatch(/→ POST .*\/reg/);
  });

  describe('loopback callback (RFC 6749 §10.12, RFC 8252 §7.3)', () => {
    const codeAgent = () => agent(() => oidcScheme(), ['openid', 'a2a:call']);
    const pkce = (onAuthorizationUrl: (url: string) => void) =>
      provider({ clientId: 'pkce-client', redirectUri: LIB_REDIRECT, onAuthorizationUrl });

    it('a callback with a wrong state is answered 400 and does not end the pending sign-in', async () => {
      const a = await codeAgent();
      const strays: { status: number; page: string }[] = [];
      const client = await A2AClient.connect(a.url, {
        oauth: pkce((url) => {
          void (async () => {
            const r = await fetch(`${LIB_REDIRECT}?code=forged&state=not-the-one`);
            strays.push({ status: r.status, page: await r.text() });
            await browse(url);
          })();
        }),
      });
      expect(strays).toEqual([
        { status: 400, page: expect.stringMatching(/state mismatch\). It was ignored/) },
      ]);
      expect(viewResult(await client.send('hi')).state).toBe('completed');
    });

    it('on denial the browser is told "Not signed in" and the client fails with access_denied', async () => {
      const a = await codeAgent();
      let answered: Promise<{ status: number; page: string }> | undefined;
      await expect(
        A2AClient.connect(a.url, {
          oauth: pkce((url) => {
            const state = new URL(url).searchParams.get('state')!;
            answered = fetch(
              `${LIB_REDIRECT}?error=access_denied&state=${state}&iss=${oidc.issuer}`,
            ).then(async (r) => ({ status: r.status, page: await r.text() }));
          }),
        }),
      ).rejects.toMatchObject({
        code: A2AClientErrorCode.OAuth,
        message: expect.stringMatching(/access_denied/),
      });
      const page = await answered!;
      expect(page.status).toBe(400);
      expect(page.page).toMatch(/Not signed in: the authorization server answered access_denied/);
      expect(page.page).not.toMatch(/Signed in\./);
    });
  });

  it('CLI with a display: opens the browser through BROWSER and signs in with PKCE, not the device code', async () => {
    requireBuiltCli();
    const home = tempHome();
    const log = join(home, 'browser.log');
    const a = await agent(() => oidcScheme(), ['openid', 'a2a:call']);
    const r = await superqode(['connect', 'a2a', a.url], {
      home,
      env: {
        DISPLAY: ':0',
        BROWSER: `${process.execPath} ${join(__dirname, '../fakes/fake-browser.mjs')}`,
        FAKE_BROWSER_LOG: log,
        SUPERQODE_A2A_OAUTH_CLIENT_ID: 'pkce-client',
        SUPERQODE_A2A_OAUTH_STORE: 'file',
      },
      timeoutMs: 20_000,
    });
    expect(r.stderr).not.toMatch(/enter the code/);
    expect(r.code).toBe(0);
    const visit = JSON.parse(readFileSync(log, 'utf8').trim()) as { url: string; page: string };
    expect(visit.url).toMatch(/code_challenge_method=S256/);
    expect(visit.page).toMatch(/Signed in\./);
    expect(r.stdout).toMatch(/completed/);
  });

  it('CLI over SSH without a display: device code (the browser is not opened); only when the card allows it', async () => {
    requireBuiltCli();
    const home = tempHome();
    const log = join(home, 'browser.log');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      NO_COLOR: '1',
      SSH_CONNECTION: '10.0.0.1 50000 10.0.0.2 22',
      BROWSER: `${process.execPath} ${join(__dirname, '../fakes/fake-browser.mjs')}`,
      FAKE_BROWSER_LOG: log,
      SUPERQODE_A2A_OAUTH_STORE: 'file',
    };
    const a = await agent(() => oidcScheme(), ['openid', 'a2a:call']);
    const child = spawn(process.execPath, [CLI, 'connect', 'a2a', a.url], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const code = /enter the code (\S+)/.exec(stderr)?.[1];
      if (code && !stderr.includes('#approved')) {
        stderr += '#approved';
        void oidc.approve(code);
      }
    });
    const exit = await new Promise<number | null>((r) => child.on('close', r));
    expect(stderr).toMatch(/To authorize this client, open .*\/device/);
    expect(exit).toBe(0);
    expect(stdout).toMatch(/completed/);
    expect(existsSync(log)).toBe(false);
    // A card whose OAuth 2 flows list only authorizationCode: no device code, the URL is printed.
    const codeOnly = await agent(
      () => ({
        oauth2SecurityScheme: {
          oauth2MetadataUrl: `${oidc.issuer}/.well-known/openid-configuration`,
          flows: {
            authorizationCode: {
              authorizationUrl: `${oidc.issuer}/auth`,
              tokenUrl: `${oidc.issuer}/token`,
              scopes: { 'a2a:call': 'call' },
            },
          },
        },
      }),
      ['a2a:call'],
    );
    // The CLI then waits for a sign-in that never comes: it is killed once the URL is out.
    const signInUrl =
      /No display here: open this URL in a browser to sign in:\n {2}http:\/\/127\.0\.0\.1:\d+\/auth\?\S+\n/;
    const r = await superqode(['connect', 'a2a', codeOnly.url], {
      home,
      env: { SSH_CONNECTION: env.SSH_CONNECTION, SUPERQODE_A2A_OAUTH_STORE: 'file' },
      until: signInUrl,
    });
    expect(r.stderr).toMatch(signInUrl);
    expect(r.stderr).not.toMatch(/enter the code/);
  });

  it('CLI --logout exits 1 when revocation failed (the authorization server is unreachable)', async () => {
    requireBuiltCli();
    const home = tempHome();
    let metadata = oidc.issuer;
    const a = await agent(
      () => ({
        oauth2SecurityScheme: {
          oauth2MetadataUrl: `${metadata}/.well-known/openid-configuration`,
          flows: { clientCredentials: { tokenUrl: `${metadata}/token`, scopes: {} } },
        },
      }),
      [],
    );
    const env = {
      SUPERQODE_A2A_OAUTH_CLIENT_ID: 'cc-client',
      SUPERQODE_A2A_OAUTH_CLIENT_SECRET: 'cc-secret',
      SUPERQODE_A2A_OAUTH_STORE: 'file',
    };
    expect((await superqode(['connect', 'a2a', a.url], { home, env })).code).toBe(0);
    metadata = proxy.url;
    proxy.failing = true;
    const out = await superqode(['connect', 'a2a', a.url, '--logout'], { home, env });
    expect(out.stdout).toMatch(/sso: revocation failed \(.*HTTP 503.*\); the tokens stay valid/);
    expect(out.code).toBe(1);
    expect(existsSync(join(home, '.superqode', 'a2a-oauth'))).toBe(true);
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
