import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, get, post, V1 } from '../fixtures/builders';
import { aKey, aKeySecret, bearer, OPERATOR_TOKEN } from '../fixtures/credentials';
import { BuiltServer, startBuiltServer } from '../utils/built-server';
import { TestServer, startTestServer } from '../utils/test-app';

const REST = { 'A2A-Version': '1.0' };
const rpc = (url: string, headers: Record<string, string> = {}) =>
  post(url, aJsonRpcRequest('GetTask', { id: 'x' }), { ...V1, ...headers });
const rest = (url: string, headers: Record<string, string> = {}) =>
  get(`${url}/tasks?pageSize=1`, { ...REST, ...headers });

describe('Rate limits: per caller per minute, global per day (issue #3)', () => {
  const secret = aKeySecret();
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({
      SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
      SUPERQODE_A2A_KEY_SECRET: secret,
      SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 3,
      SUPERQODE_A2A_KEYED_PER_MINUTE: 5,
      SUPERQODE_A2A_GLOBAL_PER_DAY: 12,
    });
  });
  afterEach(() => server.close());

  it('anonymous: the 4th request in a minute gets 429, Retry-After and the limit named, on both bindings', async () => {
    for (let i = 0; i < 3; i++)
      expect((await (i % 2 ? rest : rpc)(server.url)).status).not.toBe(429);
    const r1 = await rpc(server.url);
    expect(r1.status).toBe(429);
    expect(Number(r1.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(r1.body.error).toMatchObject({
      code: -32029,
      message: expect.stringMatching(/Per-caller limit of 3 requests per minute/),
    });
    expect(r1.body.id).toBe(1); // the request id was readable: echoed (issue #11.8)
    const r2 = await rest(server.url);
    expect(r2.status).toBe(429);
    expect(r2.body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
  });

  it('keyed callers have their own window per key, at the keyed figure', async () => {
    const a = bearer(aKey(secret).key);
    const b = bearer(aKey(secret).key);
    for (let i = 0; i < 5; i++) expect((await rpc(server.url, a)).status).toBe(200);
    expect((await rpc(server.url, a)).status).toBe(429);
    expect((await rpc(server.url, b)).status).toBe(200);
  });

  it('the operator is exempt from the per-caller window but counts in the global ceiling', async () => {
    for (let i = 0; i < 12; i++)
      expect((await rpc(server.url, bearer(OPERATOR_TOKEN))).status).toBe(200);
    const over = await rpc(server.url, bearer(OPERATOR_TOKEN));
    expect(over.status).toBe(429);
    expect(over.body.error.message).toMatch(/Global daily ceiling of 12/);
    expect((await rpc(server.url, bearer(aKey(secret).key))).status).toBe(429);
  });

  it('a request refused by the per-caller window does not consume the global budget', async () => {
    for (let i = 0; i < 3; i++) await rpc(server.url);
    for (let i = 0; i < 20; i++) expect((await rpc(server.url)).status).toBe(429);
    const health = await get(`${server.url}/health`);
    expect(health.body.rateLimits).toEqual({ trackedCallers: 1, globalCount: 3 });
    for (let i = 0; i < 9; i++)
      expect((await rpc(server.url, bearer(OPERATOR_TOKEN))).status).toBe(200);
  });

  it('a forged X-Forwarded-For from a direct client does not buy a fresh window (no trusted proxy)', async () => {
    for (let i = 0; i < 3; i++) await rpc(server.url, { 'X-Forwarded-For': `203.0.113.${i}` });
    expect((await rpc(server.url, { 'X-Forwarded-For': '198.51.100.7' })).status).toBe(429);
  });

  it('discovery and /health are never throttled, even under a flood', async () => {
    for (let i = 0; i < 30; i++) await rpc(server.url);
    for (let i = 0; i < 30; i++) {
      expect((await get(`${server.url}/.well-known/agent-card.json`)).status).toBe(200);
      expect((await get(`${server.url}/health`)).status).toBe(200);
    }
  });
});

describe('Behind a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 2,
      SUPERQODE_A2A_TRUSTED_PROXY_HOPS: 1,
    });
  });
  afterAll(() => server.close());

  it('each client address named by the proxy gets its own window', async () => {
    const as = (ip: string) => rpc(server.url, { 'X-Forwarded-For': ip });
    expect((await as('203.0.113.1')).status).toBe(200);
    expect((await as('203.0.113.1')).status).toBe(200);
    expect((await as('203.0.113.1')).status).toBe(429);
    expect((await as('203.0.113.2')).status).toBe(200);
  });
});

describe('Ceilings set to 0 are off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 0,
      SUPERQODE_A2A_GLOBAL_PER_DAY: 0,
    });
  });
  afterAll(() => server.close());

  it('serves 50 anonymous requests in a row', async () => {
    for (let i = 0; i < 50; i++) expect((await rpc(server.url)).status).toBe(200);
  });
});

describe('An empty variable is unset, not 0: it never turns a ceiling off', () => {
  let server: BuiltServer;
  beforeAll(async () => {
    // What a compose file's `${VAR}` of an unset variable, or a `KEY=` line of an env file, gives.
    server = await startBuiltServer({
      SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: '',
      SUPERQODE_A2A_GLOBAL_PER_DAY: ' ',
      SUPERQODE_A2A_MAX_CONNECTIONS_PER_ADDRESS: '',
    });
  });
  afterAll(() => server.stop());

  it('the built server keeps the default anonymous limit (10 a minute): the 11th request gets 429', async () => {
    for (let i = 0; i < 10; i++) expect((await rpc(server.url)).status).toBe(200);
    const over = await rpc(server.url);
    expect(over.status).toBe(429);
    expect(over.body.error.message).toMatch(/Per-caller limit of 10 requests per minute/);
  });

  it("a blank in the environment does not hide the .env file's value (anonymous off stays off)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-blank-env-'));
    writeFileSync(
      join(dir, '.env'),
      `SUPERQODE_A2A_ALLOW_ANONYMOUS=false\nSUPERQODE_A2A_TOKEN=${OPERATOR_TOKEN}\nSUPERQODE_A2A_KEYED_PER_MINUTE=3\n`,
    );
    const blanked = await startBuiltServer(
      {
        SUPERQODE_A2A_ALLOW_ANONYMOUS: '',
        SUPERQODE_A2A_TOKEN: ' ',
        SUPERQODE_A2A_KEYED_PER_MINUTE: '',
      },
      { dir },
    );
    try {
      expect((await rpc(blanked.url)).status).toBe(401);
      expect((await rpc(blanked.url, bearer(OPERATOR_TOKEN))).status).toBe(200);
      expect(blanked.output()).toMatch(/keyed 3\/min/);
    } finally {
      await blanked.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Failed authentication is throttled per address (issue #11.5)', () => {
  const secret = aKeySecret();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
      SUPERQODE_A2A_KEY_SECRET: secret,
      SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE: 3,
      SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 100,
      SUPERQODE_A2A_TRUSTED_PROXY_HOPS: 1,
    });
  });
  afterAll(() => server.close());

  it('past the budget every credential from that address gets 429 before verification, on every binding', async () => {
    const from = { 'X-Forwarded-For': '203.0.113.50' };
    for (let i = 0; i < 3; i++)
      expect((await rpc(server.url, { ...from, ...bearer(`wrong-guess-${i}`) })).status).toBe(401);
    const r1 = await rpc(server.url, { ...from, ...bearer('wrong-guess-4') });
    expect(r1.status).toBe(429);
    expect(Number(r1.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(r1.body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32029, message: expect.stringMatching(/failed authentications/) },
    });
    const r2 = await rest(server.url, { ...from, ...bearer('wrong-guess-5') });
    expect(r2.status).toBe(429);
    expect(r2.body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    // Checked before verifying: even the right token from this address waits out the window.
    expect((await rpc(server.url, { ...from, ...bearer(OPERATOR_TOKEN) })).status).toBe(429);
    const odd = await rpc(server.url, { ...from, Authorization: 'Basic eDp5' });
    expect(odd.status).toBe(429);
  });

  it('callers without a credential and other addresses are not affected', async () => {
    const from = { 'X-Forwarded-For': '203.0.113.60' };
    for (let i = 0; i < 4; i++) await rpc(server.url, { ...from, ...bearer(`wrong-${i}`) });
    expect((await rpc(server.url, from)).status).toBe(200);
    expect(
      (await rpc(server.url, { 'X-Forwarded-For': '203.0.113.61', ...bearer('wrong') })).status,
    ).toBe(401);
    expect(
      (await rpc(server.url, { 'X-Forwarded-For': '203.0.113.61', ...bearer(aKey(secret).key) }))
        .status,
    ).toBe(200);
  });
});

describe("Anonymous callers' share of the daily ceiling (issue #11.6)", () => {
  const secret = aKeySecret();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
      SUPERQODE_A2A_KEY_SECRET: secret,
      SUPERQODE_A2A_GLOBAL_PER_DAY: 6,
      SUPERQODE_A2A_ANONYMOUS_SHARE_OF_DAY: 0.5,
      SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 100,
      SUPERQODE_A2A_TRUSTED_PROXY_HOPS: 1,
    });
  });
  afterAll(() => server.close());

  it('anonymous callers together use at most their share; key holders and the operator are still served', async () => {
    for (let i = 0; i < 3; i++)
      expect((await rpc(server.url, { 'X-Forwarded-For': `198.51.100.${i}` })).status).toBe(200);
    const over = await rpc(server.url, { 'X-Forwarded-For': '198.51.100.99' });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(over.body.error.message).toMatch(
      /Anonymous callers' share of the daily ceiling \(3 of 6 requests\)/,
    );
    expect((await rest(server.url, { 'X-Forwarded-For': '198.51.100.98' })).body.error.status).toBe(
      'RESOURCE_EXHAUSTED',
    );
    expect((await rpc(server.url, bearer(aKey(secret).key))).status).toBe(200);
    expect((await rpc(server.url, bearer(OPERATOR_TOKEN))).status).toBe(200);
    // Every tier still counts toward the one ceiling: 3 anonymous + 2 above, one more fits.
    expect((await rpc(server.url, bearer(OPERATOR_TOKEN))).status).toBe(200);
    const global = await rpc(server.url, bearer(aKey(secret).key));
    expect(global.status).toBe(429);
    expect(global.body.error.message).toMatch(/Global daily ceiling of 6/);
  });
});
