import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, post, V1 } from '../fixtures/builders';
import { OPERATOR_TOKEN } from '../fixtures/credentials';
import { CLI_JS, MAIN_JS, startBuiltServer } from '../utils/built-server';

const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;
const ESC = '\x1b[';

/** The JSON log lines of an output (other lines, e.g. Node warnings, are skipped). */
function jsonLines(out: string): Record<string, unknown>[] {
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A few requests: an operator JSON-RPC call, an anonymous health check, an unknown path. */
async function someRequests(url: string): Promise<void> {
  await post(url, aJsonRpcRequest('GetTask', { id: 'nope' }), {
    ...V1,
    Authorization: `Bearer ${OPERATOR_TOKEN}`,
  });
  await fetch(`${url}/health`);
  await fetch(`${url}/no/such/path?access_token=${OPERATOR_TOKEN}`);
}

describe('Operable server (issue #19): banner, access log, output modes, .env', () => {
  beforeAll(() => {
    if (!existsSync(MAIN_JS)) throw new Error('dist/main.js is missing: run `npm run build`');
  });

  it('off a TTY: JSON lines with ISO timestamps, the banner, one access line per request, a shutdown line, no secret', async () => {
    const server = await startBuiltServer({ SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN });
    await someRequests(server.url);
    await server.waitFor(/"route":"\/no\/such\/path"/);
    const out = await server.stop();
    expect(out).not.toContain(OPERATOR_TOKEN);
    expect(out).not.toContain(ESC);
    const lines = jsonLines(out);
    for (const l of lines) expect(l.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const banner = lines.filter((l) => l.context === 'superqode').map((l) => l.msg as string);
    expect(banner).toEqual([
      expect.stringMatching(/^SuperQode A2A .* listening on http:\/\/127\.0\.0\.1:\d+$/),
      expect.stringMatching(
        /^Agent Card: http:.*\/\.well-known\/agent-card\.json; health: .*\/health/,
      ),
      expect.stringMatching(/^Skills: harness-shortlist; superqode-harness not served: /),
      expect.stringMatching(/^Stores: tasks .*tasks\.sqlite3$/),
      expect.stringMatching(/^Auth: operator token \+ anonymous; limits: anonymous 10\/min/),
      'SuperQode A2A stopped (SIGTERM)',
    ]);
    // Nest's boot chatter is at debug now.
    expect(lines.filter((l) => l.context === 'InstanceLoader')).toEqual([]);
    const access = lines.filter((l) => l.context === 'access');
    expect(access).toEqual([
      expect.objectContaining({
        method: 'POST',
        route: '/',
        binding: 'jsonrpc',
        status: 200,
        tier: 'operator',
        durationMs: expect.any(Number),
      }),
      expect.objectContaining({ method: 'GET', route: '/health', binding: 'health', status: 200 }),
      expect.objectContaining({
        method: 'GET',
        route: '/no/such/path',
        binding: 'other',
        status: 404,
        tier: 'anonymous',
      }),
    ]);
  });

  (HAS_SCRIPT ? it : it.skip)(
    'on a TTY (run under script -qfc): one readable coloured line each; NO_COLOR turns colour off',
    async () => {
      const underTty = (argv: string[]): string[] => [
        'script',
        '-qfc',
        argv.join(' '),
        '/dev/null',
      ];
      for (const noColor of [false, true]) {
        const server = await startBuiltServer(
          { SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN, ...(noColor ? { NO_COLOR: '1' } : {}) },
          { wrap: underTty },
        );
        await someRequests(server.url);
        await server.waitFor(/GET \/no\/such\/path 404/);
        const out = await server.stop();
        expect(out).not.toContain(OPERATOR_TOKEN);
        expect(out).not.toMatch(/^\{"level"/m);
        // eslint-disable-next-line no-control-regex
        const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
        expect(plain).toMatch(
          /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \(superqode\) SuperQode A2A .* listening on /m,
        );
        expect(plain).toMatch(
          /INFO: \(access\) POST \/ 200 \{"method":"POST","route":"\/","binding":"jsonrpc","status":200,"durationMs":[\d.]+,"tier":"operator"\}/,
        );
        if (noColor) expect(out).not.toContain(ESC);
        else expect(out).toContain(`${ESC}32mINFO`);
      }
    },
    90_000,
  );

  it('a refused start logs its reason once, as a JSON line without stack or colour when piped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-refused-'));
    try {
      const r = spawnSync(process.execPath, [MAIN_JS], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 30_000,
        env: {
          PATH: process.env.PATH,
          SUPERQODE_A2A_PORT: '0',
          SUPERQODE_A2A_TASK_STORE_PATH: join(dir, 't.sqlite3'),
          SUPERQODE_A2A_HARNESS_STORE_PATH: join(dir, 'h.sqlite3'),
          SUPERQODE_A2A_HARNESS_SPEC: join(dir, 'missing-spec.yaml'),
        },
      });
      const out = `${r.stdout}${r.stderr}`;
      expect(r.status).toBe(1);
      expect(out).not.toContain(ESC);
      expect(out).not.toMatch(/\n\s+at /);
      const errors = jsonLines(out).filter((l) => l.level === 'error');
      expect(errors).toEqual([
        expect.objectContaining({ msg: expect.stringMatching(/missing-spec\.yaml: cannot read/) }),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--metrics-host: a second listener serves GET /metrics only, without a credential; ps shows no --token value', async () => {
    const server = await startBuiltServer(
      {},
      {
        args: [
          CLI_JS,
          'serve',
          'a2a',
          '--token',
          OPERATOR_TOKEN,
          '--metrics-host',
          '127.0.0.1',
          '--metrics-port',
          '0',
        ],
      },
    );
    try {
      await server.waitFor(/and http:\/\/127\.0\.0\.1:\d+\/metrics \(no credential\)/);
      // What `ps` shows other local users (src/cli/argv-secrets.ts).
      const cmdline = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8');
      expect(cmdline).not.toContain(OPERATOR_TOKEN);
      expect(cmdline).toContain('serve a2a --token *** --metrics-host');
      const url = /and (http:\/\/127\.0\.0\.1:\d+\/metrics) \(no credential\)/.exec(
        server.output(),
      )![1];
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE superqode_a2a_http_requests_total counter');
      expect((await fetch(url.replace('/metrics', '/health'))).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it('--metrics-port already in use: exits naming the address and the flag to change', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const args = [CLI_JS, 'serve', 'a2a', '--metrics-host', '127.0.0.1'];
      const started = startBuiltServer({}, { args: [...args, '--metrics-port', String(port)] });

      await expect(started).rejects.toThrow(
        `Cannot listen on 127.0.0.1:${port}: the address is already in use (is another server ` +
          'running there?). Stop the other server, or choose another port with --metrics-port ' +
          'or SUPERQODE_A2A_METRICS_PORT.',
      );
    } finally {
      busy.close();
    }
  });

  describe('.env and --env-file', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sq-dotenv-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('start:prod reads ./.env; a variable set in the environment beats the file', async () => {
      writeFileSync(
        join(dir, '.env'),
        'SUPERQODE_A2A_ANONYMOUS_PER_MINUTE=7\nSUPERQODE_A2A_KEYED_PER_MINUTE=8\n',
      );
      const server = await startBuiltServer({ SUPERQODE_A2A_KEYED_PER_MINUTE: '9' }, { dir });
      await server.waitFor(/limits: /);
      const out = await server.stop();
      expect(out).toMatch(/limits: anonymous 7\/min, keyed 9\/min/);
    });

    it('superqode serve a2a --env-file reads that file; a missing one stops it naming the flag', async () => {
      const file = join(dir, 'prod.env');
      writeFileSync(
        file,
        `SUPERQODE_A2A_TOKEN=${OPERATOR_TOKEN}\nSUPERQODE_A2A_GLOBAL_PER_DAY=1234\n`,
      );
      const server = await startBuiltServer(
        {},
        { args: [CLI_JS, 'serve', 'a2a', '--env-file', file], dir },
      );
      await server.waitFor(/limits: /);
      const out = await server.stop();
      expect(out).toMatch(/Auth: operator token \+ anonymous; .*all callers 1234\/day/);
      expect(out).not.toContain(OPERATOR_TOKEN);
      const missing = spawnSync(
        process.execPath,
        [CLI_JS, 'serve', 'a2a', '--env-file', join(dir, 'missing.env'), '--port', '0'],
        { encoding: 'utf8', cwd: dir, timeout: 20_000 },
      );
      // Node 20 itself acts on `--env-file` after the script name (exit 9, "node: <path>: not
      // found"); newer Node leaves it to us (exit 1, "--env-file <path>: ENOENT …").
      expect(missing.status).not.toBe(0);
      expect(`${missing.stdout}${missing.stderr}`).toMatch(/missing\.env: (ENOENT|not found)/);
    });
  });
});
