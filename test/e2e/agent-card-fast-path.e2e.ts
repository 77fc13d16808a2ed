import { httpRequest, parseRawResponse, rawSocket, RawReply } from '../utils/raw-http';
import { logSink, requestCount } from '../utils/observed';
import { startTestServer, TestServer } from '../utils/test-app';

/**
 * The plain card GET/HEAD is served from the HTTP server's `request` listener, before Fastify
 * (`serveCardsBeforeRouting`). Over real HTTP it must answer exactly what the Fastify route
 * answers (`app.inject()` never reaches that listener), under the same guards, metrics and
 * access log.
 */
const CARD = '/.well-known/agent-card.json';
const ALIAS = '/.well-known/agent.json';

/** Headers that differ between two replies for reasons of transport, not content. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function comparable(status: number, headers: Record<string, unknown>, body: string) {
  const kept = Object.entries(headers)
    .filter(([k]) => !TRANSPORT_HEADERS.has(k.toLowerCase()))
    // Fastify's HEAD route adds `Content-Length: 0` to a 304, which RFC 9110 §8.6 forbids (it
    // must equal the 200's); the card served before routing sends none, as on a GET's 304.
    .filter(([k]) => !(status === 304 && k.toLowerCase() === 'content-length'))
    .map(([k, v]) => [k.toLowerCase(), String(v)])
    .sort(([a], [b]) => a.localeCompare(b));
  return { status, headers: Object.fromEntries(kept), body };
}

async function viaFastify(server: TestServer, method: string, path: string, headers = {}) {
  const r = await server.app.inject({ method: method as 'GET', url: path, headers });
  return comparable(r.statusCode, r.headers, r.body);
}

async function viaHttp(server: TestServer, method: string, path: string, headers = {}) {
  const r: RawReply = await httpRequest(server.url, { method, path, headers });
  return comparable(r.status, r.headers, r.text);
}

describe.each([
  ['dual card (0.3 interface on)', {}],
  ['strict card (SUPERQODE_A2A_LEGACY_V03=false)', { SUPERQODE_A2A_LEGACY_V03: false }],
])('Agent Card served before routing, %s (A2A §8.2)', (_name, env) => {
  let server: TestServer;
  let etag: string;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startTestServer(
      { ...env, SUPERQODE_A2A_LOG_LEVEL: 'log' },
      { logStream: logSink(lines) },
    );
    etag = String((await httpRequest(server.url, { path: CARD })).headers.etag);
  });
  afterAll(() => server.close());

  const cases: [string, string, string, Record<string, string>][] = [
    ['a header-less GET', 'GET', CARD, {}],
    ['a HEAD', 'HEAD', CARD, {}],
    ['the 0.3-era alias path', 'GET', ALIAS, {}],
    ['A2A-Version: 1.0', 'GET', CARD, { 'a2a-version': '1.0' }],
    ['A2A-Version: 1.0.3', 'GET', CARD, { 'a2a-version': '1.0.3' }],
    ['A2A-Version: 0.3', 'GET', CARD, { 'a2a-version': '0.3' }],
    ['an unsupported A2A-Version', 'GET', CARD, { 'a2a-version': '2.0' }],
    [
      'a foreign Origin (discovery is open to any origin)',
      'GET',
      CARD,
      { origin: 'http://evil.example' },
    ],
    ['Sec-Fetch-Site: cross-site', 'GET', CARD, { 'sec-fetch-site': 'cross-site' }],
    ['If-None-Match: *', 'GET', CARD, { 'if-none-match': '*' }],
    ['If-None-Match that does not match', 'GET', CARD, { 'if-none-match': '"other"' }],
    [
      'a future If-Modified-Since',
      'HEAD',
      CARD,
      { 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT' },
    ],
    [
      'a past If-Modified-Since',
      'GET',
      CARD,
      { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
    ],
    ['an A2A-Version query parameter', 'GET', `${CARD}?A2A-Version=1.0`, {}],
  ];
  it.each(cases)('%s gets the reply the Fastify route gives', async (_c, method, path, headers) => {
    const fastify = await viaFastify(server, method, path, headers);
    await expect(viaHttp(server, method, path, headers)).resolves.toEqual(fastify);
  });

  it('a matching ETag (strong or weak) is a 304 without a body (RFC 9110 §13.1.2)', async () => {
    for (const inm of [etag, `W/${etag}`, `"x", ${etag}`]) {
      const r = await httpRequest(server.url, { path: CARD, headers: { 'if-none-match': inm } });
      expect([r.status, r.text]).toEqual([304, '']);
      expect(r.headers.etag).toBe(etag);
    }
  });

  it('a Host that is not served is refused 421 in the HTTP+JSON shape (RFC 9110 §15.5.20)', async () => {
    const r = await httpRequest(server.url, { path: CARD, headers: { host: 'evil.example' } });
    expect(r.status).toBe(421);
    expect(r.body.error).toMatchObject({ code: 421 });
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('two Host lines are a 400, not a card (RFC 9112 §3.2)', async () => {
    const s = await rawSocket(
      server.url,
      `GET ${CARD} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    const reply = parseRawResponse(await s.closed);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 400 });
  });

  it('a CORS preflight of the card is 204 with the discovery headers', async () => {
    const r = await httpRequest(server.url, {
      method: 'OPTIONS',
      path: CARD,
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(r.status).toBe(204);
    expect(r.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    });
  });

  it('counts card GETs and HEADs under binding "card" and writes one access line each', async () => {
    const count = (method: string) =>
      requestCount(server.url, { binding: 'card', method, status: 200 });
    const [gets, heads] = [await count('GET'), await count('HEAD')];
    const logged = lines.length;
    for (let i = 0; i < 5; i++) await httpRequest(server.url, { path: CARD });
    await httpRequest(server.url, { method: 'HEAD', path: ALIAS });
    expect(await count('GET')).toBe(gets + 5);
    expect(await count('HEAD')).toBe(heads + 1);
    const access = lines
      .slice(logged)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((p) => p.context === 'access' && p.binding === 'card');
    expect(access).toHaveLength(6);
    expect(access[5]).toMatchObject({
      method: 'HEAD',
      route: ALIAS,
      status: 200,
      tier: 'anonymous',
    });
    expect(access[0]).not.toHaveProperty('aborted');
  });
});
