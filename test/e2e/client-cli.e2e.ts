import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { aKey, aKeySecret, OPERATOR_TOKEN } from '../fixtures/credentials';
import { requireBuiltCli, superqode, superqodeInProcess, tempHome } from '../fakes/client-cli';
import { aV1Card, aV1Task, FakeAgent, json, startFakeAgent } from '../fakes/client-fake-agent';
import { withSlowExecutor } from '../utils/executor-override';
import { TestServer, startTestServer } from '../utils/test-app';

describe('superqode connect a2a / a2a (in process, two runs on the built CLI; issue #6)', () => {
  const secret = aKeySecret();
  const key = aKey(secret).key;
  let server: TestServer;
  let home: string;
  // In process (nest-commander-testing); `spawned` runs dist/cli.js, kept for a few smoke tests.
  const run = (args: string[], env: Record<string, string> = {}) =>
    superqodeInProcess(args, { home, env });
  const spawned = (args: string[], env: Record<string, string> = {}) =>
    superqode(args, { home, env });

  beforeAll(async () => {
    requireBuiltCli();
    server = await startTestServer(
      {
        SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
        SUPERQODE_A2A_KEY_SECRET: secret,
        SUPERQODE_A2A_ALLOW_ANONYMOUS: false,
      },
      { customize: withSlowExecutor },
    );
  });
  beforeEach(() => {
    home = tempHome();
  });
  afterAll(() => server.close());

  describe('--inspect', () => {
    it('prints discovery, interfaces with reasons, schemes and the call, with no secret anywhere', async () => {
      const r = await spawned([
        'connect',
        'a2a',
        `${server.url}/`,
        '--inspect',
        '--token',
        key,
        '--header',
        'X-Api-Key: sk-proj-abcdefghijklmnop',
        '--send',
        'which harness for rust',
      ]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        /\[discovery\] → GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json/,
      );
      expect(r.stdout).toMatch(/\[discovery\] ← 200 OK .*ETag/);
      expect(r.stdout).toMatch(
        /\[interface\] · supportedInterfaces\[1\]: JSONRPC 0\.3 .* → speaks JSONRPC 0\.3/,
      );
      expect(r.stdout).toMatch(/\[interface\] · chosen: JSONRPC 1\.0 .*first choice/);
      expect(r.stdout).toMatch(
        /\[auth\] · bearer: HTTP Bearer → sending Authorization: Bearer \[REDACTED\] \(token from --token\)/,
      );
      expect(r.stdout).toMatch(/\[call\] → {3}authorization: Bearer \[REDACTED\]/);
      expect(r.stdout).toMatch(/\[call\] → {3}x-api-key: \[REDACTED\]/);
      expect(r.stdout).toMatch(/task: .* completed/);
      for (const s of [
        key,
        key.slice(9, 30),
        OPERATOR_TOKEN,
        'sk-proj-abcdefghijklmnop',
        'abcdefghijklmnop',
      ])
        expect(r.all).not.toContain(s);
    });

    it('a token from SUPERQODE_A2A_CLIENT_TOKEN is used and redacted too', async () => {
      const r = await run(['connect', 'a2a', server.url, '--inspect', '--no-send'], {
        SUPERQODE_A2A_CLIENT_TOKEN: OPERATOR_TOKEN,
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/token from \$SUPERQODE_A2A_CLIENT_TOKEN/);
      expect(r.all).not.toContain(OPERATOR_TOKEN);
    });

    it('an API key in a query parameter is redacted in URLs', async () => {
      const apiKey = 'sqk_test_queryKEY0123456789';
      const f: FakeAgent = await startFakeAgent({
        card: (b) =>
          aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], {
            securitySchemes: { q: { apiKeySecurityScheme: { location: 'query', name: 'key' } } },
          }),
        auth: (req) => req.query.get('key') === apiKey,
      });
      try {
        const r = await run(['connect', 'a2a', f.url, '--inspect', '--token', apiKey]);
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/\?key=\[REDACTED\]/);
        expect(r.all).not.toContain('queryKEY0123456789');
      } finally {
        await f.close();
      }
    });
  });

  describe('--conformance', () => {
    it('passes every client-fit check against our server, exit 0, and says what it is not', async () => {
      const r = await run([
        'connect',
        'a2a',
        server.url,
        '--conformance',
        '--token',
        OPERATOR_TOKEN,
      ]);
      expect(r.code).toBe(0);
      for (const check of [
        'card fetch',
        'card shape',
        'interface reachable',
        'send completes',
        'get returns the task',
        'cancel behaves',
        'stream works',
        'context continuity',
      ]) {
        expect(r.stdout).toMatch(new RegExp(`^${check} +PASS `, 'm'));
      }
      expect(r.stdout).toMatch(/8 checks: 8 passed, 0 failed, 0 skipped/);
      expect(r.stdout).toMatch(/client-fit checks .*not a server conformance result/);
    });

    it('fails (exit 1) when a send does not complete: a Message is not a completed task', async () => {
      const f = await startFakeAgent({
        card: (b) => aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]),
        rpc: (c) =>
          c.method === 'SendMessage'
            ? { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } }
            : undefined,
      });
      try {
        const r = await run(['connect', 'a2a', f.url, '--conformance']);
        expect(r.code).toBe(1);
        expect(r.stdout).toMatch(/^send completes +FAIL +the agent answered with a Message/m);
        expect(r.stdout).toMatch(/^interface reachable +FAIL /m);
        expect(r.stdout).toMatch(/^context continuity +SKIP /m);
      } finally {
        await f.close();
      }
    });

    it('--no-send checks the card only; an unreachable host fails the card fetch', async () => {
      const ok = await run(['connect', 'a2a', server.url, '--conformance', '--no-send', '--json']);
      expect(ok.code).toBe(0);
      const doc = JSON.parse(ok.stdout) as { checks: { name: string; status: string }[] };
      expect(doc.checks.map((c) => c.status)).toEqual([
        'pass',
        'pass',
        'skip',
        'skip',
        'skip',
        'skip',
        'skip',
        'skip',
      ]);
      const down = await run(['connect', 'a2a', 'http://127.0.0.1:9', '--conformance']);
      expect(down.code).toBe(1);
      expect(down.stdout).toMatch(/^card fetch +FAIL +.*cannot reach the host/m);
    });
  });

  describe('saved connections (~/.superqode/a2a.json)', () => {
    it('--save writes a 0600 file in a 0700 dir; a2a call threads the contextId; --new starts over', async () => {
      const saved = await run(
        [
          'connect',
          'a2a',
          server.url,
          '--token',
          key,
          '--header',
          'X-Trace: t1',
          '--save',
          'local',
          '--no-send',
        ],
        { SUPERQODE_A2A_SECRET_STORE: 'file' },
      );
      expect(saved.code).toBe(0);
      const file = join(home, '.superqode', 'a2a.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(home, '.superqode')).mode & 0o777).toBe(0o700);
      expect(JSON.parse(readFileSync(file, 'utf8')).connections.local).toMatchObject({
        url: server.url,
        token: key,
        headers: [['X-Trace', 't1']],
      });
      const call = async (...extra: string[]) => {
        const r = await run(['a2a', 'call', 'local', 'which harness for rust', '--json', ...extra]);
        expect(r.code).toBe(0);
        return (JSON.parse(r.stdout) as { result: { contextId: string; state: string } }).result;
      };
      const first = await call();
      expect(first.state).toBe('completed');
      expect((await call()).contextId).toBe(first.contextId);
      const fresh = await call('--new');
      expect(fresh.contextId).not.toBe(first.contextId);
      expect((await call()).contextId).toBe(fresh.contextId);
      const list = await run(['a2a', 'list']);
      expect(list.stdout).toMatch(
        new RegExp(
          `^local  ${server.url.replace(/\./g, '\\.')}  token saved in the file; headers X-Trace; context ${fresh.contextId}`,
          'm',
        ),
      );
      expect(list.all).not.toContain(key);
    });

    it('a token from the environment is not saved, only the variable name, and is read again at call time', async () => {
      const env = { SUPERQODE_A2A_CLIENT_TOKEN: OPERATOR_TOKEN };
      expect(
        (await run(['connect', 'a2a', server.url, '--save', 'envy', '--no-send'], env)).code,
      ).toBe(0);
      const text = readFileSync(join(home, '.superqode', 'a2a.json'), 'utf8');
      expect(text).not.toContain(OPERATOR_TOKEN);
      expect(JSON.parse(text).connections.envy.tokenEnv).toBe('SUPERQODE_A2A_CLIENT_TOKEN');
      expect((await run(['a2a', 'call', 'envy', 'hello'], env)).code).toBe(0);
      const without = await run(['a2a', 'call', 'envy', 'hello']);
      expect(without.code).toBe(1);
      expect(without.all).toMatch(/requires a credential/);
    });

    it('a2a call of an unknown name exits 1; a2a list with nothing saved says how to save', async () => {
      const r = await spawned(['a2a', 'call', 'nope', 'hi']);
      expect(r.code).toBe(1);
      expect(r.all).toMatch(/no saved connection "nope"/);
      expect((await run(['a2a', 'list'])).stdout).toMatch(/no saved connections/);
    });
  });

  describe('discover, --no-send, --json and exit codes', () => {
    it('--no-wait on a task the agent already finished prints no follow-up commands', async () => {
      const f = await startFakeAgent({
        card: (b) => aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]),
        rpc: (c) => (c.method === 'SendMessage' ? { task: aV1Task('hi') } : undefined),
      });
      try {
        const r = await run(['connect', 'a2a', f.url, '--no-wait', '--send', 'hi']);
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(/task: +task-1 completed/);
        expect(r.stdout).not.toMatch(/cancel it:|follow it:/);
      } finally {
        await f.close();
      }
    });

    it('a2a discover lists interfaces with verdicts, the choice and the schemes; sends nothing', async () => {
      const r = await run(['a2a', 'discover', server.url]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/✓ JSONRPC 0\.3 at .*: speaks JSONRPC 0\.3/);
      expect(r.stdout).toMatch(/chosen: +JSONRPC 1\.0/);
      expect(r.stdout).toMatch(/bearer: HTTP Bearer → not used/);
      expect(r.stdout).toMatch(/warning: the card requires bearer/);
    });

    it('--no-send --json prints the summary without calling the agent', async () => {
      const r = await run(['connect', 'a2a', server.url, '--no-send', '--json']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as {
        interface: { spoken: string };
        result: null;
        interfaces: unknown[];
      };
      expect(doc).toMatchObject({ interface: { spoken: 'JSONRPC 1.0' }, result: null });
      expect(doc.interfaces).toHaveLength(3);
    });

    it.each([
      [['connect', 'a2a', 'http://x', '--header', 'no-colon'], 2, /--header takes NAME:VALUE/],
      [['connect', 'a2a', 'http://x', '--timeout', '0'], 2, /--timeout must be/],
      [['connect'], 2, /Usage: superqode connect a2a/],
      [['a2a'], 2, /Usage: superqode a2a list\|call\|remove\|discover/],
      [['connect', 'a2a', 'http://127.0.0.1:9'], 1, /cannot reach the host/],
      [['connect', 'a2a', 'ftp://x'], 1, /only http and https/],
    ])('%j exits %i', async (args, code, message) => {
      const r = await run(args as string[]);
      expect(r.code).toBe(code);
      expect(r.all).toMatch(message);
    });

    it('a protected card exits 1 saying so', async () => {
      const f = await startFakeAgent({
        routes: [(req, res) => req.path.startsWith('/.well-known') && json(res, 401, {})],
      });
      try {
        const r = await run(['connect', 'a2a', f.url]);
        expect(r.code).toBe(1);
        expect(r.all).toMatch(/agent card .* is protected \(HTTP 401\)/);
      } finally {
        await f.close();
      }
    });
  });
});
