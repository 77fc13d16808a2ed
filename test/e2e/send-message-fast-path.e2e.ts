import { SendMessageFastPath } from '../../src/modules/transport/send-message.fast-path';
import { aKey, aKeySecret, bearer, OPERATOR_TOKEN } from '../fixtures/credentials';
import { httpRequest, parseRawResponse, rawSocket } from '../utils/raw-http';
import { logSink, requestCount } from '../utils/observed';
import { startTestServer, TestServer } from '../utils/test-app';

/**
 * A2A 1.0 SendMessage (JSON-RPC `POST /`, REST `POST /message:send`) is served from the HTTP
 * server's `request` listener, before Fastify (`SendMessageFastPath`, issue #14). Over real HTTP
 * every request must get what the Fastify route gives (`app.inject()` never reaches that
 * listener): the ones the fast path answers and the ones it hands over (after reading the body,
 * or before), under the same guards, limits, metrics and access log.
 */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;

/** A reply with what differs per task (ids, times, the length that follows) taken out. */
function comparable(status: number, headers: Record<string, unknown>, body: string) {
  const kept = Object.entries(headers)
    .filter(([k]) => !TRANSPORT_HEADERS.has(k.toLowerCase()))
    .map(([k, v]) => [k.toLowerCase(), String(v)])
    .map(([k, v]) => [k, k === 'content-length' && status === 200 ? 'n' : v])
    .sort(([a], [b]) => a.localeCompare(b));
  const text = body.replace(UUID, 'UUID').replace(ISO_TIME, 'TIME');
  return { status, headers: Object.fromEntries(kept), body: text };
}

interface Case {
  path: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

const JSON_RPC = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const REST = { 'content-type': 'application/json', 'a2a-version': '1.0' };
const MESSAGE = {
  messageId: 'm-1',
  role: 'ROLE_USER',
  parts: [{ text: 'which harness for rust' }],
};
const send = (extra: Record<string, unknown> = {}, params: unknown = { message: MESSAGE }) =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'SendMessage', params, ...extra });

async function viaFastify(server: TestServer, c: Case) {
  const r = await server.app.inject({
    method: 'POST',
    url: c.path,
    headers: c.headers,
    payload: c.body,
  });
  return comparable(r.statusCode, r.headers, r.body);
}

async function viaHttp(server: TestServer, c: Case) {
  const body = typeof c.body === 'string' ? c.body : c.body.toString('latin1');
  const headers = { ...c.headers, 'content-length': String(Buffer.byteLength(c.body)) };
  if (typeof c.body !== 'string') {
    const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
    const s = await rawSocket(
      server.url,
      `POST ${c.path} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n${head.join('')}` +
        `Connection: close\r\n\r\n`,
    );
    s.socket.end(c.body);
    const raw = await s.closed;
    const r = parseRawResponse(raw);
    const got = Object.fromEntries(
      r.head
        .split('\r\n')
        .slice(1)
        .map((line) => [
          line.slice(0, line.indexOf(':')),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
    );
    return comparable(r.status, got, raw.slice(raw.indexOf('\r\n\r\n') + 4));
  }
  const r = await httpRequest(server.url, { method: 'POST', path: c.path, headers, body });
  return comparable(r.status, r.headers, r.text);
}

describe('SendMessage served before routing (issue #14)', () => {
  const secret = aKeySecret();
  const key = aKey(secret).key;
  let server: TestServer;
  let fastPath: SendMessageFastPath;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startTestServer(
      {
        SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
        SUPERQODE_A2A_KEY_SECRET: secret,
        SUPERQODE_A2A_LOG_LEVEL: 'log',
        SUPERQODE_A2A_CORS_ORIGINS: 'https://app.example',
      },
      { logStream: logSink(lines) },
    );
    fastPath = server.app.get(SendMessageFastPath);
  });
  afterAll(() => server.close());

  const own = () => new URL(server.url).origin;
  // [name, case, answered before routing]
  const cases: [string, () => Case, boolean][] = [
    ['a JSON-RPC SendMessage', () => ({ path: '/', headers: JSON_RPC, body: send() }), true],
    ['a string id', () => ({ path: '/', headers: JSON_RPC, body: send({ id: 'abc' }) }), true],
    ['a null id', () => ({ path: '/', headers: JSON_RPC, body: send({ id: null }) }), true],
    [
      'a tenant',
      () => ({ path: '/', headers: JSON_RPC, body: send({}, { message: MESSAGE, tenant: 't1' }) }),
      true,
    ],
    [
      'A2A-Version: 1.0.3',
      () => ({ path: '/', headers: { ...JSON_RPC, 'a2a-version': '1.0.3' }, body: send() }),
      true,
    ],
    [
      'the operator token',
      () => ({
        path: '/',
        headers: { ...JSON_RPC, ...lower(bearer(OPERATOR_TOKEN)) },
        body: send(),
      }),
      true,
    ],
    [
      'a signed API key',
      () => ({ path: '/', headers: { ...JSON_RPC, ...lower(bearer(key)) }, body: send() }),
      true,
    ],
    [
      'the server’s own Origin (CORS headers)',
      () => ({ path: '/', headers: { ...JSON_RPC, origin: own() }, body: send() }),
      true,
    ],
    [
      'a --cors-origin Origin',
      () => ({ path: '/', headers: { ...JSON_RPC, origin: 'https://app.example' }, body: send() }),
      true,
    ],
    [
      'an extension header',
      () => ({
        path: '/',
        headers: { ...JSON_RPC, 'a2a-extensions': 'https://example.com/ext/v1' },
        body: send(),
      }),
      true,
    ],
    ['a REST send', () => ({ path: '/message:send', headers: REST, body: rest() }), true],
    [
      'a REST send as application/a2a+json',
      () => ({
        path: '/message:send',
        headers: { ...REST, 'content-type': 'application/a2a+json' },
        body: rest(),
      }),
      true,
    ],
    [
      'a REST send asking for a2a+json',
      () => ({
        path: '/message:send',
        headers: { ...REST, accept: 'application/a2a+json' },
        body: rest(),
      }),
      true,
    ],
    [
      'a REST send with an API key',
      () => ({ path: '/message:send', headers: { ...REST, ...lower(bearer(key)) }, body: rest() }),
      true,
    ],
    // Handed to Fastify after the body was read.
    ['bad JSON', () => ({ path: '/', headers: JSON_RPC, body: '{"jsonrpc":' }), false],
    ['an empty body', () => ({ path: '/', headers: JSON_RPC, body: '' }), false],
    [
      'another method (GetTask)',
      () => ({
        path: '/',
        headers: JSON_RPC,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
      }),
      false,
    ],
    [
      'a message without messageId',
      () => ({ path: '/', headers: JSON_RPC, body: send({}, { message: { role: 'ROLE_USER' } }) }),
      true, // the request handler's -32602
    ],
    ['params as an array', () => ({ path: '/', headers: JSON_RPC, body: send({}, []) }), false],
    [
      'a part with two content members',
      () => ({
        path: '/',
        headers: JSON_RPC,
        body: send({}, { message: { ...MESSAGE, parts: [{ text: 'a', data: { b: 1 } }] } }),
      }),
      false,
    ],
    [
      'a body nested past the depth limit',
      () => ({
        path: '/',
        headers: JSON_RPC,
        body: send({}, { message: MESSAGE, metadata: deep(200) }),
      }),
      false,
    ],
    [
      'a body that is not UTF-8',
      () => ({ path: '/', headers: JSON_RPC, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }),
      false,
    ],
    [
      'a REST body that is not JSON',
      () => ({ path: '/message:send', headers: REST, body: 'x' }),
      false,
    ],
    [
      'a REST body without message',
      () => ({ path: '/message:send', headers: REST, body: '{}' }),
      true, // the request handler's 400
    ],
    // Left to Fastify before the body is read.
    [
      'no A2A-Version (the 0.3 interface)',
      () => ({
        path: '/',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              messageId: 'm',
              role: 'user',
              parts: [{ kind: 'text', text: 'rust' }],
            },
          },
        }),
      }),
      false,
    ],
    [
      'an unsupported A2A-Version',
      () => ({ path: '/', headers: { ...JSON_RPC, 'a2a-version': '2.0' }, body: send() }),
      false,
    ],
    [
      'a JSON-RPC call as application/a2a+json',
      () => ({
        path: '/',
        headers: { ...JSON_RPC, 'content-type': 'application/a2a+json' },
        body: send(),
      }),
      false,
    ],
    [
      'text/plain',
      () => ({ path: '/', headers: { ...JSON_RPC, 'content-type': 'text/plain' }, body: send() }),
      false,
    ],
    [
      'a foreign Origin',
      () => ({ path: '/', headers: { ...JSON_RPC, origin: 'http://evil.example' }, body: send() }),
      false,
    ],
    [
      'Sec-Fetch-Site: cross-site',
      () => ({ path: '/', headers: { ...JSON_RPC, 'sec-fetch-site': 'cross-site' }, body: send() }),
      false,
    ],
    [
      'a wrong bearer token',
      () => ({ path: '/', headers: { ...JSON_RPC, authorization: 'Bearer nope' }, body: send() }),
      false,
    ],
    [
      'a Basic credential',
      () => ({ path: '/', headers: { ...JSON_RPC, authorization: 'Basic eDp5' }, body: send() }),
      false,
    ],
    [
      'a REST send with a wrong API key',
      () => ({
        path: '/message:send',
        headers: { ...REST, authorization: 'Bearer sqk_live_nope' },
        body: rest(),
      }),
      false,
    ],
    ['a query string', () => ({ path: '/?a=1', headers: JSON_RPC, body: send() }), false],
    [
      'a REST send without A2A-Version',
      () => ({
        path: '/message:send',
        headers: { 'content-type': 'application/json' },
        body: rest(),
      }),
      false,
    ],
  ];

  it.each(cases)('%s gets the reply the Fastify route gives', async (_n, make, answered) => {
    const c = make();
    const fastify = await viaFastify(server, c);
    const before = fastPath.answered;
    await expect(viaHttp(server, c)).resolves.toEqual(fastify);
    expect(fastPath.answered - before).toBe(answered ? 1 : 0);
  });

  it('reads a body that arrives in pieces, and answers it', async () => {
    const body = send();
    const s = await rawSocket(
      server.url,
      `POST / HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\ncontent-type: application/json\r\n` +
        `a2a-version: 1.0\r\ncontent-length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n` +
        body.slice(0, 20),
    );
    await new Promise((r) => setTimeout(r, 50));
    s.socket.end(body.slice(20));
    const reply = parseRawResponse(await s.closed);
    expect(reply.status).toBe(200);
    expect(reply.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a client that leaves mid-body costs nothing and the server serves on', async () => {
    const s = await rawSocket(
      server.url,
      `POST / HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\ncontent-type: application/json\r\n` +
        `a2a-version: 1.0\r\ncontent-length: 500\r\n\r\n{"jsonrpc":`,
    );
    s.socket.destroy();
    const r = await httpRequest(server.url, {
      method: 'POST',
      path: '/',
      headers: JSON_RPC,
      body: send(),
    });
    expect(r.status).toBe(200);
  });

  it('a body over the size limit is left to Fastify (413)', async () => {
    const big = send({}, { message: MESSAGE, metadata: { pad: 'x'.repeat(1_100_000) } });
    const before = fastPath.answered;
    const r = await httpRequest(server.url, {
      method: 'POST',
      path: '/',
      headers: JSON_RPC,
      body: big,
    });
    expect(r.status).toBe(413);
    expect(fastPath.answered).toBe(before);
  });

  it('the stored task is the task the reply named', async () => {
    const r = await httpRequest(server.url, {
      method: 'POST',
      path: '/',
      headers: JSON_RPC,
      body: send(),
    });
    const task = r.body.result.task;
    const got = await httpRequest(server.url, {
      method: 'POST',
      path: '/',
      headers: JSON_RPC,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: task.id } }),
    });
    expect(got.body.result).toEqual(task);
  });

  it('counts each send under its binding and writes one access line with the caller', async () => {
    const count = (binding: string) =>
      requestCount(
        server.url,
        { binding, method: 'POST', status: 200 },
        lower(bearer(OPERATOR_TOKEN)),
      );
    const [rpc, rst] = [await count('jsonrpc'), await count('rest')];
    const logged = lines.length;
    await httpRequest(server.url, { method: 'POST', path: '/', headers: JSON_RPC, body: send() });
    await httpRequest(server.url, {
      method: 'POST',
      path: '/message:send',
      headers: { ...REST, ...lower(bearer(key)) },
      body: rest(),
    });
    expect([await count('jsonrpc'), await count('rest')]).toEqual([rpc + 1, rst + 1]);
    const access = lines
      .slice(logged)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((p) => p.context === 'access' && p.method === 'POST');
    expect(access).toEqual([
      expect.objectContaining({ route: '/', binding: 'jsonrpc', status: 200, tier: 'anonymous' }),
      expect.objectContaining({
        route: '/message:send',
        binding: 'rest',
        status: 200,
        tier: 'keyed',
      }),
    ]);
  });
});

describe('SendMessage served before routing, rate limits (issue #14)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 2 });
  });
  afterAll(() => server.close());

  it('counts fast-path sends against the caller window and answers the 429 as Fastify would', async () => {
    const c: Case = { path: '/', headers: JSON_RPC, body: send() };
    expect((await viaHttp(server, c)).status).toBe(200);
    expect((await viaHttp(server, c)).status).toBe(200);
    const limited = await viaHttp(server, c);
    expect(limited.status).toBe(429);
    await expect(viaFastify(server, c)).resolves.toEqual(limited);
    const r: Case = { path: '/message:send', headers: REST, body: rest() };
    await expect(viaHttp(server, r)).resolves.toEqual(await viaFastify(server, r));
  });
});

describe('SendMessage served before routing, the caller once the body is read (issue #14)', () => {
  const secret = aKeySecret();
  const key = aKey(secret).key;
  let server: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startTestServer(
      {
        SUPERQODE_A2A_KEY_SECRET: secret,
        SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE: 2,
        SUPERQODE_A2A_LOG_LEVEL: 'log',
      },
      { logStream: logSink(lines) },
    );
  });
  afterAll(() => server.close());

  /** Writes the head and the first bytes of `body` to `path`; the rest is the test's to send. */
  const started = (path: string, headers: Record<string, string>, body: string) => {
    const head = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)) })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    return rawSocket(
      server.url,
      `POST ${path} HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n${head}` +
        `Connection: close\r\n\r\n${body.slice(0, 10)}`,
    );
  };
  const accessLine = async (from: number) => {
    for (let i = 0; i < 100; i++) {
      const line = lines
        .slice(from)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((p) => p.context === 'access' && p.method === 'POST');
      if (line) return line;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('no access line');
  };
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('logs a keyed client that leaves mid-body as the route does (no caller yet)', async () => {
    const headers = { ...JSON_RPC, ...lower(bearer(key)) };
    const logged = [];
    for (const path of ['/', '/?via=fastify']) {
      const from = lines.length;
      const s = await started(path, headers, send());
      await pause(100);
      s.socket.destroy();
      const { time: _t, durationMs: _d, ...line } = await accessLine(from);
      logged.push(line);
    }
    expect(logged[0]).toEqual(logged[1]);
    expect(logged[0]).toMatchObject({ tier: 'anonymous', aborted: true });
  });

  it('times a request handed to Fastify after its body from its head', async () => {
    const from = lines.length;
    const s = await started('/', JSON_RPC, '{"jsonrpc":' + ' '.repeat(40));
    await pause(300);
    s.socket.end(' '.repeat(41));
    expect(parseRawResponse(await s.closed).body.error.code).toBe(-32700);
    expect((await accessLine(from)).durationMs).toBeGreaterThanOrEqual(290);
  });

  it('refuses a valid key whose address used up the failed-auth budget while its body came', async () => {
    const headers = { ...JSON_RPC, ...lower(bearer(key)) };
    const body = send();
    const s = await started('/', headers, body);
    for (let i = 0; i < 2; i++) {
      const bad = { ...JSON_RPC, authorization: 'Bearer sqk_live_nope' };
      expect((await viaHttp(server, { path: '/', headers: bad, body })).status).toBe(401);
    }
    s.socket.end(body.slice(10));
    const reply = parseRawResponse(await s.closed);
    const fastify = await viaFastify(server, { path: '/', headers, body });
    expect(fastify.status).toBe(429);
    expect(reply.status).toBe(429);
    expect(reply.body).toEqual(JSON.parse(fastify.body));
  });
});

describe('SendMessage served before routing, shutdown (issue #14)', () => {
  it('answers a request whose body still came at shutdown as the route does, not 503', async () => {
    const server = await startTestServer();
    const body = '{"jsonrpc":' + ' '.repeat(40);
    const s = await rawSocket(
      server.url,
      `POST / HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\ncontent-type: application/json\r\n` +
        `a2a-version: 1.0\r\ncontent-length: ${body.length}\r\nConnection: close\r\n\r\n` +
        body.slice(0, 11),
    );
    await new Promise((r) => setTimeout(r, 50));
    const closed = server.close();
    await new Promise((r) => setTimeout(r, 300));
    s.socket.end(body.slice(11));
    const reply = parseRawResponse(await s.closed);
    await closed;
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Invalid JSON payload.' },
    });
  });
});

describe('Request deadline while the server closes (review of issue #14)', () => {
  it('a stalled body (a 0.3 call, routed by Fastify) gets its 408 and the server closes', async () => {
    const server = await startTestServer({ SUPERQODE_A2A_REQUEST_TIMEOUT_MS: 1500 });
    const s = await rawSocket(
      server.url,
      `POST / HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\ncontent-type: application/json\r\n` +
        `content-length: 100\r\n\r\n{"jsonrpc":`,
    );
    await new Promise((r) => setTimeout(r, 50));
    const closed = server.close(); // before the fix: never resolved (Node stops the deadline checks)
    const reply = parseRawResponse(await s.closed);
    await closed;
    expect(reply.status).toBe(408);
    expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });
});

function rest(): string {
  return JSON.stringify({ message: MESSAGE });
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function deep(n: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { v };
  return v;
}
