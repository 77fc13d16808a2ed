import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, V1 } from '../fixtures/builders';
import { httpRequest } from '../utils/raw-http';
import { TestServer, freePort, startTestServer } from '../utils/test-app';

const ALLOWED = 'https://console.example';
const sendBody = () =>
  JSON.stringify(
    aJsonRpcRequest('SendMessage', { message: aMessage('find a harness for reviews') }),
  );
const restBody = () => JSON.stringify({ message: aMessage('find a harness for reviews') });

describe('Requests from browsers (issue #12)', () => {
  let server: TestServer;
  const taskCount = async () =>
    (await httpRequest(server.url, { path: '/tasks', headers: { 'A2A-Version': '1.0' } })).body
      .tasks.length as number;

  beforeAll(async () => {
    server = await startTestServer({
      SUPERQODE_A2A_CORS_ORIGINS: ALLOWED,
      SUPERQODE_A2A_ALLOWED_HOSTS: 'agent.internal',
      SUPERQODE_A2A_PUBLIC_URL: 'https://a2a.example.com',
    });
  });
  afterAll(() => server.close());

  describe('Content-Type is required on every POST (a no-cors fetch cannot run anything)', () => {
    it('POST / without Content-Type: -32005 and no task is created', async () => {
      const before = await taskCount();
      const r = await httpRequest(server.url, {
        method: 'POST',
        headers: { 'A2A-Version': '1.0' },
        body: sendBody(),
      });
      expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32005 } });
      expect(r.body.error.message).toMatch(/^No Content-Type; expected application\/json/);
      expect(await taskCount()).toBe(before);
    });

    it('REST message:send without Content-Type: 400 CONTENT_TYPE_NOT_SUPPORTED (A2A 1.0.1 §5.4)', async () => {
      const r = await httpRequest(server.url, {
        method: 'POST',
        path: '/message:send',
        headers: { 'A2A-Version': '1.0' },
        body: restBody(),
      });
      expect(r.status).toBe(400);
      expect(r.body.error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
    });

    it('application/a2a+json is accepted on REST', async () => {
      const r = await httpRequest(server.url, {
        method: 'POST',
        path: '/message:send',
        headers: { 'A2A-Version': '1.0', 'content-type': 'application/a2a+json' },
        body: restBody(),
      });
      expect(r.status).toBe(200);
    });
  });

  describe('Origin and Sec-Fetch-Site', () => {
    it('a foreign Origin is refused with 403 before any handler, in each binding’s shape', async () => {
      const before = await taskCount();
      const rpc = await httpRequest(server.url, {
        method: 'POST',
        headers: { ...V1, Origin: 'https://evil.example' },
        body: sendBody(),
      });
      expect(rpc.status).toBe(403);
      expect(rpc.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32043 } });
      const rest = await httpRequest(server.url, {
        method: 'POST',
        path: '/message:send',
        headers: { ...V1, Origin: 'http://localhost:3000' },
        body: restBody(),
      });
      expect(rest.status).toBe(403);
      expect(rest.body.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED' });
      const list = await httpRequest(server.url, {
        path: '/tasks',
        headers: { 'A2A-Version': '1.0', Origin: 'null' },
      });
      expect(list.status).toBe(403);
      expect(await taskCount()).toBe(before);
    });

    it('Sec-Fetch-Site: cross-site without an allowed Origin is refused with 403', async () => {
      const r = await httpRequest(server.url, {
        path: '/tasks',
        headers: { 'A2A-Version': '1.0', 'Sec-Fetch-Site': 'cross-site' },
      });
      expect(r.status).toBe(403);
      expect(r.body.error.status).toBe('PERMISSION_DENIED');
    });

    it('a --cors-origin origin is served, with its CORS headers, and its preflight is granted', async () => {
      const pre = await httpRequest(server.url, {
        method: 'OPTIONS',
        headers: {
          Origin: ALLOWED,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, a2a-version',
        },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(String(pre.headers['access-control-allow-headers'])).toMatch(/Content-Type/);
      expect(String(pre.headers['access-control-allow-methods'])).toMatch(/POST/);
      const r = await httpRequest(server.url, {
        method: 'POST',
        headers: { ...V1, Origin: ALLOWED, 'Sec-Fetch-Site': 'cross-site' },
        body: sendBody(),
      });
      expect(r.status).toBe(200);
      expect(r.body.result.task).toBeDefined();
      expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(r.headers.vary).toMatch(/Origin/);
    });

    it('the server’s own origin (public URL) is served', async () => {
      const r = await httpRequest(server.url, {
        path: '/tasks',
        headers: { 'A2A-Version': '1.0', Origin: 'https://a2a.example.com' },
      });
      expect(r.status).toBe(200);
    });

    it('discovery stays reachable from any origin with Access-Control-Allow-Origin: *', async () => {
      for (const path of ['/.well-known/agent-card.json', '/health', '/icon.svg']) {
        const r = await httpRequest(server.url, {
          path,
          headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
        });
        expect([path, r.status]).toEqual([path, 200]);
        expect(r.headers['access-control-allow-origin']).toBe('*');
      }
      const pre = await httpRequest(server.url, {
        method: 'OPTIONS',
        path: '/.well-known/agent-card.json',
        headers: { Origin: 'https://evil.example' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('*');
    });
  });

  describe('Host (DNS rebinding)', () => {
    it('an unknown Host is refused with 421 in each binding’s shape', async () => {
      const rest = await httpRequest(server.url, {
        path: '/tasks',
        headers: { 'A2A-Version': '1.0', Host: 'attacker.example:8000' },
      });
      expect(rest.status).toBe(421);
      expect(rest.body.error).toMatchObject({ code: 421 });
      expect(rest.body.tasks).toBeUndefined();
      const rpc = await httpRequest(server.url, {
        method: 'POST',
        headers: { ...V1, Host: 'attacker.example:8000' },
        body: sendBody(),
      });
      expect(rpc.status).toBe(421);
      expect(rpc.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });

    it.each([
      '127.0.0.1:8000',
      'localhost',
      'LOCALHOST:1234',
      '[::1]:8000',
      'a2a.example.com',
      'agent.internal:443',
    ])('Host %s is served (loopback, public URL host, --allowed-host)', async (host) => {
      const r = await httpRequest(server.url, {
        path: '/tasks',
        headers: { 'A2A-Version': '1.0', Host: host },
      });
      expect(r.status).toBe(200);
    });
  });
});

describe('superqode serve a2a: repeatable --cors-origin and --allowed-host (built CLI)', () => {
  it('each repeated flag is honoured; other origins and hosts stay refused', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'sq-cors-'));
    const args = [
      'serve',
      'a2a',
      '--port',
      String(port),
      '--no-task-store',
      '--harness-store',
      join(dir, 'h.sqlite3'),
      '--cors-origin',
      'https://one.example',
      '--cors-origin',
      'https://two.example',
      '--allowed-host',
      'agent.lan',
      '--allowed-host',
      'box.lan',
    ];
    const child = spawn(process.execPath, [join(__dirname, '../../dist/cli.js'), ...args], {
      // The start-up banner (its "Agent Card:" line says the server listens) is at info.
      env: { ...process.env, SUPERQODE_A2A_LOG_LEVEL: 'log' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('Agent Card:')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`serve a2a exited ${code}`)));
      });
      const url = `http://127.0.0.1:${port}`;
      const get = (headers: Record<string, string>) =>
        httpRequest(url, { path: '/tasks', headers: { 'A2A-Version': '1.0', ...headers } });
      expect((await get({ Origin: 'https://one.example' })).status).toBe(200);
      expect((await get({ Origin: 'https://two.example' })).status).toBe(200);
      expect((await get({ Origin: 'https://three.example' })).status).toBe(403);
      expect((await get({ Host: 'agent.lan:8000' })).status).toBe(200);
      expect((await get({ Host: 'box.lan' })).status).toBe(200);
      expect((await get({ Host: 'other.lan' })).status).toBe(421);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
