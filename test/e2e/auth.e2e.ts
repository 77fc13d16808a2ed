import { aJsonRpcRequest, aLegacyMessage, aMessage, get, post, V1 } from '../fixtures/builders';
import { aKey, aKeySecret, bearer, OPERATOR_TOKEN } from '../fixtures/credentials';
import { withSlowExecutor } from '../utils/executor-override';
import { TestServer, startTestServer } from '../utils/test-app';

const REST = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

/** Sends one message on a binding with extra headers; returns HTTP status and body. */
async function send(
  url: string,
  binding: string,
  headers: Record<string, string>,
  text = 'which harness for rust',
) {
  if (binding === 'jsonrpc-1.0')
    return post(url, aJsonRpcRequest('SendMessage', { message: aMessage(text) }), {
      ...V1,
      ...headers,
    });
  if (binding === 'jsonrpc-0.3')
    return post(url, aJsonRpcRequest('message/send', { message: aLegacyMessage(text) }), {
      'content-type': 'application/json',
      ...headers,
    });
  return post(`${url}/message:send`, { message: aMessage(text) }, { ...REST, ...headers });
}

const BINDINGS = ['jsonrpc-1.0', 'jsonrpc-0.3', 'rest'];

describe('Access tiers (issue #3; RFC 6750)', () => {
  const secret = aKeySecret();
  const revoked = aKey(secret, { label: 'gone' });
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      {
        SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
        SUPERQODE_A2A_KEY_SECRET: secret,
        SUPERQODE_A2A_REVOKED_KEYS: `0123456789ab,${revoked.kid}`,
      },
      { customize: withSlowExecutor },
    );
  });
  afterAll(() => server.close());

  describe.each(BINDINGS)('%s', (binding) => {
    it.each([
      ['anonymous', {}],
      ['keyed', bearer(aKey(secret).key)],
      ['keyed (test key)', bearer(aKey(secret, { test: true }).key)],
      ['operator', bearer(OPERATOR_TOKEN)],
    ])('serves the %s tier', async (_tier, headers) => {
      const r = await send(server.url, binding, headers as Record<string, string>);
      expect(r.status).toBe(200);
      expect(r.body.error).toBeUndefined();
    });

    it.each([
      ['a tampered signature', () => aKey(secret).key.slice(0, -2) + 'AA', /signature/i],
      ['a key signed with another secret', () => aKey(aKeySecret()).key, /signature/i],
      [
        'an expired key',
        () => aKey(secret, { days: 1, now: new Date(Date.now() - 3 * 86_400_000) }).key,
        /expired/i,
      ],
      ['a revoked key', () => revoked.key, /revoked/i],
      ['a malformed key', () => 'sqk_live_not-a-key', /malformed/i],
      ['an unknown token', () => 'definitely-not-a-token', /unrecognised/i],
    ])(
      'refuses %s with 401, the reason and WWW-Authenticate, never as anonymous',
      async (_n, token, reason) => {
        const r = await send(server.url, binding, bearer(token()));
        expect(r.status).toBe(401);
        expect(r.headers.get('www-authenticate')).toMatch(
          /^Bearer realm="superqode-a2a", error="invalid_token", error_description="/,
        );
        const message = binding === 'rest' ? r.body.error.message : r.body.error.message;
        expect(message).toMatch(reason);
        if (binding === 'rest') expect(r.body.error.status).toBe('UNAUTHENTICATED');
        else expect(r.body.error.code).toBe(-32040);
      },
    );
  });

  it('refuses a non-Bearer Authorization scheme with 401', async () => {
    const r = await send(server.url, 'rest', { Authorization: 'Basic dXNlcjpwYXNz' });
    expect(r.status).toBe(401);
  });

  it('advertises bearer auth in the card without requiring it (anonymous allowed), and no secret', async () => {
    const r = await get(`${server.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' });
    expect(r.body.securitySchemes.bearer.httpAuthSecurityScheme.scheme).toBe('Bearer');
    expect(r.body.securityRequirements).toBeUndefined();
    const dual = await get(`${server.url}/.well-known/agent-card.json`);
    expect(dual.body.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const text of [r.text, dual.text]) {
      expect(text).not.toContain(OPERATOR_TOKEN);
      expect(text).not.toContain(secret);
    }
  });

  describe("task isolation between two keys (A2A §3.1: another caller's task is a missing task)", () => {
    const alice = bearer(aKey(secret, { label: 'alice' }).key);
    const bob = bearer(aKey(secret, { label: 'bob' }).key);

    it('Get, List, Cancel and Subscribe by another key answer TaskNotFound / nothing', async () => {
      const cfg = { returnImmediately: true };
      const sent = await post(
        server.url,
        aJsonRpcRequest('SendMessage', { message: aMessage('slow 40'), configuration: cfg }),
        { ...V1, ...alice },
      );
      const { id, contextId } = sent.body.result.task;
      const asBob = (method: string, params: unknown) =>
        post(server.url, aJsonRpcRequest(method, params), { ...V1, ...bob });
      expect((await asBob('GetTask', { id })).body.error.code).toBe(-32001);
      expect((await asBob('CancelTask', { id })).body.error.code).toBe(-32001);
      expect((await asBob('SubscribeToTask', { id })).body.error.code).toBe(-32001);
      expect((await asBob('ListTasks', { contextId })).body.result.tasks).toEqual([]);
      const rest = await get(`${server.url}/tasks/${id}`, { 'A2A-Version': '1.0', ...bob });
      expect(rest.status).toBe(404);
      const anon = await get(`${server.url}/tasks/${id}`, { 'A2A-Version': '1.0' });
      expect(anon.status).toBe(404);
      const own = await post(server.url, aJsonRpcRequest('CancelTask', { id }), {
        ...V1,
        ...alice,
      });
      expect(own.body.result.status.state).toBe('TASK_STATE_CANCELED');
    });
  });
});

describe('Anonymous access off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
      SUPERQODE_A2A_ALLOW_ANONYMOUS: false,
    });
  });
  afterAll(() => server.close());

  it.each(BINDINGS)('%s: no credential → 401 with a realm-only challenge', async (binding) => {
    const r = await send(server.url, binding, {});
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="superqode-a2a"');
  });

  it('the operator is served; discovery and /health are never gated', async () => {
    expect((await send(server.url, 'rest', bearer(OPERATOR_TOKEN))).status).toBe(200);
    expect((await get(`${server.url}/.well-known/agent-card.json`)).status).toBe(200);
    expect((await get(`${server.url}/.well-known/agent.json`)).status).toBe(200);
    expect((await get(`${server.url}/health`)).status).toBe(200);
  });

  it('the card requires the bearer scheme (1.0 securityRequirements, 0.3 security)', async () => {
    const strict = await get(`${server.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' });
    expect(strict.body.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
    const dual = await get(`${server.url}/.well-known/agent-card.json`);
    expect(dual.body.security).toEqual([{ bearer: [] }]);
  });
});

describe('No signing secret configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({});
  });
  afterAll(() => server.close());

  it('rejects every API key with 401 saying the server has no secret', async () => {
    const r = await send(server.url, 'rest', bearer(aKey(aKeySecret()).key));
    expect(r.status).toBe(401);
    expect(r.body.error.message).toMatch(/secret/i);
  });

  it('advertises no security scheme', async () => {
    const card = await get(`${server.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' });
    expect(card.body.securitySchemes).toBeUndefined();
  });
});
