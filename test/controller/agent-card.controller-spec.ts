import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InjectedApp, startInjectedApp } from '../utils/inject-app';
import type { HttpMethod } from '../utils/inject-app';

// Controller tier: the real app on Fastify, driven with inject() (wire shapes only).
let server: InjectedApp;
const get: InjectedApp['get'] = (...args) => server.get(...args);
/** fetch() over inject(), for the calls below that need a method or raw body. */
async function fetch(
  url: string,
  init: { method?: HttpMethod; headers?: Record<string, string>; body?: string } = {},
) {
  const r = await server.request(init.method ?? 'GET', url, init.headers, init.body);
  return {
    status: r.status,
    headers: r.headers,
    text: async () => r.text,
    json: async () => r.body,
  };
}

const PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'];

describe('Agent Card discovery and caching (A2A §8.2, RFC 9110 §13)', () => {
  beforeAll(async () => {
    server = await startInjectedApp({ SUPERQODE_A2A_CARD_CACHE_MAX_AGE_S: 120 });
  });
  afterAll(() => server.close());

  it.each(PATHS)(
    '%s without A2A-Version serves the dual-shaped card (1.0 fields + 0.3 fields)',
    async (path) => {
      const r = await get(server.url + path);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        name: 'SuperQode',
        version: '1.0',
        url: server.url,
        preferredTransport: 'JSONRPC',
        protocolVersion: '0.3',
        capabilities: { streaming: true, pushNotifications: false },
      });
      expect(
        r.body.supportedInterfaces.map(
          (i: { protocolBinding: string; protocolVersion: string }) =>
            `${i.protocolBinding}@${i.protocolVersion}`,
        ),
      ).toEqual(['JSONRPC@1.0', 'JSONRPC@0.3', 'HTTP+JSON@1.0']);
      expect(r.body.skills.map((s: { id: string }) => s.id)).toEqual(['harness-shortlist']);
      expect(r.body.skills[0].examples.length).toBeGreaterThan(0);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
    },
  );

  it('a spelling of the card path the router matches (%2e) carries the same A2A-Version header', async () => {
    const canonical = await get(server.url + PATHS[0]);
    const spelled = await get(server.url + '/%2ewell-known/agent-card.json');
    expect(spelled.status).toBe(200);
    expect(canonical.headers.get('a2a-version')).toBe('0.3');
    expect(spelled.headers.get('a2a-version')).toBe(canonical.headers.get('a2a-version'));
    expect(spelled.headers.get('etag')).toBe(canonical.headers.get('etag'));
  });

  it('with A2A-Version: 1.0 serves the strict 1.0 card, its own ETag, Vary: A2A-Version', async () => {
    const strict = await get(server.url + PATHS[0], { 'A2A-Version': '1.0' });
    const dual = await get(server.url + PATHS[0]);
    expect(strict.body.url).toBeUndefined();
    expect(strict.body.preferredTransport).toBeUndefined();
    expect(strict.body.protocolVersion).toBeUndefined();
    const { url: _u, preferredTransport: _p, protocolVersion: _v, ...dualWithout } = dual.body;
    expect(dualWithout).toEqual(strict.body);
    expect(strict.headers.get('etag')).not.toBe(dual.headers.get('etag'));
    expect(strict.headers.get('vary')).toContain('A2A-Version');
  });

  it('sends Cache-Control, a strong ETag of the exact bytes and Last-Modified', async () => {
    const r = await get(server.url + PATHS[0]);
    expect(r.headers.get('cache-control')).toBe('public, max-age=120');
    const etag = r.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const { createHash } = await import('node:crypto');
    expect(etag).toBe(`"${createHash('sha256').update(r.text).digest('hex').slice(0, 32)}"`);
    expect(Number.isNaN(Date.parse(r.headers.get('last-modified')!))).toBe(false);
  });

  it('answers 304 to a matching If-None-Match: exact, weak form, in a list, and *', async () => {
    const etag = (await get(server.url + PATHS[0])).headers.get('etag')!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await get(server.url + PATHS[0], { 'If-None-Match': inm });
      expect([inm, r.status, r.text]).toEqual([inm, 304, '']);
    }
    const miss = await get(server.url + PATHS[0], { 'If-None-Match': '"nope"' });
    expect(miss.status).toBe(200);
  });

  it('answers 304 to a not-older If-Modified-Since, 200 to an older one', async () => {
    const lm = (await get(server.url + PATHS[0])).headers.get('last-modified')!;
    expect((await get(server.url + PATHS[0], { 'If-Modified-Since': lm })).status).toBe(304);
    const older = new Date(Date.parse(lm) - 60_000).toUTCString();
    expect((await get(server.url + PATHS[0], { 'If-Modified-Since': older })).status).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await fetch(server.url + PATHS[1], { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"/);
    expect(await res.text()).toBe('');
  });

  it('answers a CORS preflight from any origin', async () => {
    const res = await fetch(server.url + PATHS[0], {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('serves the icon the card points at as image/svg+xml', async () => {
    const card = (await get(server.url + PATHS[0])).body;
    const res = await fetch(card.iconUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
  });

  it('GET /health reports versions, interfaces, skills and a reachable durable store', async () => {
    const r = await get(`${server.url}/health`);
    expect(r.body).toMatchObject({
      status: 'ok',
      agentCardVersion: '1.0',
      skills: ['harness-shortlist'],
      taskStore: { durable: true, reachable: true },
    });
    expect(r.body.version).toBe(
      (
        JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
          version: string;
        }
      ).version,
    );
    const head = await fetch(`${server.url}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });
});

describe('Agent Card with the 0.3 interface switched off', () => {
  beforeAll(async () => {
    server = await startInjectedApp({
      SUPERQODE_A2A_LEGACY_V03: false,
      SUPERQODE_A2A_PUBLIC_URL: 'https://agent.example.com/ ',
    });
  });
  afterAll(() => server.close());

  it('neither advertises nor serves 0.3; interface URLs come from the trimmed public URL', async () => {
    const card = (await get(server.url + PATHS[0])).body;
    expect(card.url).toBeUndefined();
    expect(card.supportedInterfaces).toEqual([
      { url: 'https://agent.example.com', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'https://agent.example.com', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ]);
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }),
    });
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32009);
  });
});
