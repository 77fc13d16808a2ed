import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { aKey, aKeySecret } from '../fixtures/credentials';
import { TestServer, startTestServer } from '../utils/test-app';

const EXAMPLE = join(__dirname, '../../examples/interop/a2a-client.mjs');

/** Runs the example asynchronously (the server is in this process). */
function example(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [EXAMPLE, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('examples/interop/a2a-client.mjs (dependency-free client)', () => {
  describe('against an open server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server.close());

    it.each([[[]], [['--rest']]])(
      '%j: completes a task, prints state and reply, exit 0',
      async (flags) => {
        const r = await example([
          `${server.url}/`,
          'which harness for an open source rust project?',
          ...flags,
        ]);
        expect(r.out).toMatch(/agent: +SuperQode 1\.0/);
        expect(r.out).toMatch(
          flags.length ? /interface: HTTP\+JSON 1\.0/ : /interface: JSONRPC 1\.0/,
        );
        expect(r.out).toMatch(/task: +\S+ completed/);
        expect(r.out).toMatch(/not a measurement/);
        expect(r.code).toBe(0);
      },
    );

    it('exits 2 on bad usage and 1 when nothing listens', async () => {
      expect((await example(['only-url'])).code).toBe(2);
      const down = await example(['http://127.0.0.1:9', 'x']);
      expect(down.code).toBe(1);
      expect(down.out).toMatch(/^error: /m);
    });
  });

  describe('against a server that requires a credential', () => {
    const secret = aKeySecret();
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        SUPERQODE_A2A_KEY_SECRET: secret,
        SUPERQODE_A2A_ALLOW_ANONYMOUS: false,
      });
    });
    afterAll(() => server.close());

    it.each([[[]], [['--rest']]])(
      '%j: with --token (or A2A_TOKEN) it completes; without, exit 1',
      async (flags) => {
        const key = aKey(secret).key;
        const ok = await example([server.url, 'hello', '--token', key, ...flags]);
        expect(ok.code).toBe(0);
        expect(ok.out).not.toContain(key);
        expect((await example([server.url, 'hello', ...flags], { A2A_TOKEN: key })).code).toBe(0);
        const refused = await example([server.url, 'hello', ...flags]);
        expect(refused.code).toBe(1);
        expect(refused.out).toMatch(/requires a credential/);
      },
    );
  });
});
