import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import { describeWithBwrap } from '../utils/bwrap';
import { startTestServer, type TestServer } from '../utils/test-app';

/** Secrets in the server's environment that no sandboxed process may see. */
const SECRETS = {
  DATABASE_URL: 'postgres://app:db-secret-7f3a@db/app',
  DB_PASS: 'db-pass-secret-91c2',
  SMTP_PWD: 'smtp-secret-44d1',
  OPENAI_API_KEY: 'sk-provider-secret-0b9e',
};

/** Host processes whose command line contains `marker` (zombies excluded). */
function hostProcesses(marker: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const state = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.[0];
        return state !== 'Z' && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describeWithBwrap('Harness tools under the bwrap sandbox (issue #12)', () => {
  let fake: FakeOpenAiServer;
  let server: TestServer;
  const saved = { ...process.env };
  const checkout = tempCheckout({ 'README.md': '# demo\n' });
  const outside = mkdtempSync(join(tmpdir(), 'sq-outside-'));
  const spec = join(outside, 'sandboxed.yaml');

  /** Runs one bash tool call in a harness task; resolves to the tool output the model got. */
  async function bash(command: string, timeoutSeconds = 20): Promise<string> {
    fake.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command, timeout_seconds: timeoutSeconds } }] },
      { text: 'done' },
    );
    const r = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('run it') }),
      V1,
    );
    expect(r.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const tool = fake.requests
      .at(-1)
      ?.body.messages.filter((m) => m.role === 'tool')
      .at(-1);
    return String(tool?.content);
  }

  beforeAll(async () => {
    Object.assign(process.env, SECRETS);
    writeFileSync(
      spec,
      'name: sandboxed\ninherits: coding\nexecution_policy: {sandbox: bwrap}\n' +
        'limits: {max_processes: 48, max_cpu_seconds: 30, max_file_bytes: 1048576, max_address_space_bytes: 2147483648}\n',
    );
    fake = await FakeOpenAiServer.start();
    server = await startTestServer({
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_SPEC: spec,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
      SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
      SUPERQODE_A2A_WORKING_DIR: checkout.dir,
      // The default layout: both stores inside the checkout.
      SUPERQODE_A2A_TASK_STORE_PATH: join(checkout.dir, '.superqode/a2a/tasks.sqlite3'),
      SUPERQODE_A2A_HARNESS_STORE_PATH: join(checkout.dir, 'ledger.sqlite3'),
    });
  });
  afterAll(async () => {
    process.env = saved;
    await server?.close();
    await fake?.close();
    checkout.remove();
    rmSync(outside, { recursive: true, force: true });
  });

  it('/health and the card name the sandbox in force', async () => {
    expect((await get(`${server.url}/health`)).body.harnessSandbox).toBe('bwrap');
    const card = (await get(`${server.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' }))
      .body;
    const skill = card.skills.find((s: { id: string }) => s.id === 'superqode-harness');
    expect(skill.description).toMatch(/Sandbox: bwrap/);
  });

  it('shows no secret in any /proc/*/environ or cmdline, and only sandbox processes', async () => {
    const out = await bash(
      'for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do tr "\\0" " " < "$f"; echo; done; ' +
        'echo "PIDS: $(ls /proc | grep -E "^[0-9]+$" | tr "\\n" " ")"; echo "PPID: $PPID"; env',
    );
    for (const secret of Object.values(SECRETS)) expect(out).not.toContain(secret);
    expect(out).not.toMatch(/jest|node_modules|SUPERQODE_A2A/);
    expect(out).toMatch(/^PPID: 1$/m);
    const pids = /^PIDS: (.*)$/m.exec(out)?.[1].trim().split(' ').map(Number) ?? [];
    expect(pids.length).toBeGreaterThan(0);
    // A fresh pid namespace: bwrap's init is 1, the command and its children follow.
    expect(Math.max(...pids)).toBeLessThan(50);
    expect(out).toMatch(/^HOME=\/tmp$/m);
  });

  it('writes only inside the working directory', async () => {
    const out = await bash(
      `echo ok > inside.txt && echo INSIDE; for p in /usr/x /etc/x ${outside}/x /x; do ` +
        'touch "$p" 2>/dev/null && echo "WROTE $p"; done; ' +
        `echo private > /tmp/${basename(outside)}-private; id -u`,
    );
    expect(out).toMatch(/INSIDE/);
    expect(out).not.toMatch(/WROTE/);
    expect(out).toMatch(/^65534$/m);
    expect(readFileSync(join(checkout.dir, 'inside.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(join(outside, 'x'))).toBe(false);
    expect(existsSync(`/tmp/${basename(outside)}-private`)).toBe(false);
  });

  it('cannot connect to a loopback port when allow_network is false', async () => {
    let connections = 0;
    const listener: Server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const { port } = listener.address() as { port: number };
    try {
      const out = await bash(
        `(echo hi > /dev/tcp/127.0.0.1/${port}) 2>&1 && echo CONNECTED || echo REFUSED`,
      );
      expect(out).toMatch(/REFUSED/);
      expect(out).not.toMatch(/CONNECTED/);
      expect(connections).toBe(0);
    } finally {
      listener.close();
    }
  });

  it('leaves no setsid descendant behind after the timeout', async () => {
    const out = await bash('setsid -f sleep 1237; setsid -f sh -c "sleep 1238"; sleep 30', 1);
    expect(out).toMatch(/\[killed: timeout after 1 s\]/);
    let left = hostProcesses('sleep\u00001237').concat(hostProcesses('sleep 1238'));
    for (let i = 0; i < 40 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = hostProcesses('sleep\u00001237').concat(hostProcesses('sleep 1238'));
    }
    expect(left).toEqual([]);
  });

  it('sets the spec rlimits and stops a fork bomb at the process limit', async () => {
    expect(await bash('ulimit -u; ulimit -f; ulimit -t; ulimit -v')).toMatch(
      /^48\n1024\n30\n2097152\n/,
    );
    const big = await bash('head -c 2000000 /dev/zero > big.bin; echo "size $(wc -c < big.bin)"');
    expect(big).toMatch(/^size 1048576$/m);
    const out = await bash(':(){ :|:& };:; sleep 2; echo BOMB_DONE', 3);
    expect(out).toMatch(/Resource temporarily unavailable/);
    // The server and the next command are fine.
    expect(await bash('echo still here')).toMatch(/still here/);
  });

  it('cannot plant a hook, an fsmonitor or an alias in .git/ (read-only without allow_git_writes)', async () => {
    const out = await bash(
      'echo "touch PWNED" > .git/hooks/pre-commit 2>/dev/null && echo WROTE-HOOK; ' +
        'git config core.fsmonitor "touch PWNED" 2>/dev/null && echo WROTE-CONFIG; ' +
        'echo "[alias] x = !touch PWNED" >> .git/config 2>/dev/null && echo WROTE-ALIAS; echo checked',
    );
    expect(out).toMatch(/checked/);
    expect(out).not.toMatch(/WROTE-/);
    expect(existsSync(join(checkout.dir, '.git/hooks/pre-commit'))).toBe(false);
    expect(readFileSync(join(checkout.dir, '.git/config'), 'utf8')).not.toMatch(/fsmonitor|alias/);
    // The rest of the checkout stays writable.
    expect(await bash('echo w > writable.txt && echo OK')).toMatch(/OK/);
  });

  it("cannot read the server's task store or ledger", async () => {
    const out = await bash(
      'echo "LS:[$(ls -A .superqode)]"; for f in .superqode/a2a/tasks.sqlite3 ledger.sqlite3; do head -c 15 "$f"; echo " [$f]"; done',
    );
    expect(existsSync(join(checkout.dir, '.superqode/a2a/tasks.sqlite3'))).toBe(true);
    expect(readFileSync(join(checkout.dir, 'ledger.sqlite3')).subarray(0, 15).toString()).toBe(
      'SQLite format 3',
    );
    expect(out).not.toContain('SQLite format 3');
    expect(out).toMatch(/^LS:\[\]$/m);
  });
});
