import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessCommandsModule } from '../../src/modules/harness/commands/harness-commands.module';
import { ServeCommandsModule } from '../../src/modules/transport/commands/serve-commands.module';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import { spawnHealthyMain } from '../utils/built-server';
import { runCommandInProcess } from '../utils/in-process-cli';

const ROOT = join(__dirname, '../..');

interface Server {
  proc: ChildProcess;
  url: string;
}

const startServer = (env: Record<string, string>) => spawnHealthyMain(env, 150);

async function stop(server: Server): Promise<void> {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  server.proc.kill('SIGKILL');
  await new Promise((r) => server.proc.once('exit', r));
}

/** A harness task sent without waiting for its end; returns its id. */
async function sendHarnessTask(server: Server, text: string): Promise<string> {
  const sent = await post(
    server.url,
    aJsonRpcRequest('SendMessage', {
      message: aMessage(text),
      configuration: { returnImmediately: true },
    }),
    V1,
  );
  return sent.body.result.task.id as string;
}

/** Polls GetTask until the task leaves SUBMITTED/WORKING (or the deadline passes). */
async function settled(server: Server, id: string, deadlineMs = 30_000): Promise<any> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const got = await post(server.url, aJsonRpcRequest('GetTask', { id }), V1);
    const state = got.body.result?.status?.state as string | undefined;
    if (
      (state && !['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'].includes(state)) ||
      Date.now() > until
    )
      return got.body.result;
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function modelRequests(fake: FakeOpenAiServer, atLeast: number): Promise<void> {
  for (let i = 0; i < 200 && fake.requests.length < atLeast; i++)
    await new Promise((r) => setTimeout(r, 50));
}

function cli(
  args: string[],
  env: Record<string, string>,
): { status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', SUPERQODE_A2A_LOG_LEVEL: 'error', ...env },
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout };
}

/**
 * `superqode serve a2a …` / `harness …` in process (issue #13: a spawn per call proves nothing
 * `a2a reconcile` above and the other suites' spawns do not): `env` only, every other SUPERQODE_
 * variable cleared, log level error, while the servers keep running on the same stores.
 */
async function cliInProcess(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number; stdout: string }> {
  const cleared = Object.keys(process.env).filter((k) => k.startsWith('SUPERQODE_'));
  const r = await runCommandInProcess([ServeCommandsModule, HarnessCommandsModule], args, {
    ...Object.fromEntries(cleared.map((k) => [k, undefined])),
    SUPERQODE_A2A_LOG_LEVEL: 'error',
    ...env,
  });
  return { status: r.status, stdout: r.stdout };
}

describe('task and run ownership: leases, heartbeats, reconciliation (issue #13)', () => {
  let fake: FakeOpenAiServer;
  let checkout: TempCheckout;
  const dir = mkdtempSync(join(tmpdir(), 'sq-owner-'));
  let env: Record<string, string>;
  const servers: Server[] = [];

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    checkout = tempCheckout({ 'README.md': '# demo\n' });
    env = {
      SUPERQODE_A2A_TASK_STORE_PATH: join(dir, 'tasks.sqlite3'),
      SUPERQODE_A2A_HARNESS_STORE_PATH: join(dir, 'harness.sqlite3'),
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
      SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
      SUPERQODE_A2A_WORKING_DIR: checkout.dir,
      // Short lease: the other server and the CLI reconcile many times during one slow task.
      SUPERQODE_A2A_LEASE_MS: '1500',
      SUPERQODE_A2A_HEARTBEAT_MS: '250',
      // `settled` polls GetTask every 150 ms: the anonymous default (10 per minute) answered the
      // 11th poll 429 (-32029) whenever a loaded machine took over ~1.5 s to reconcile.
      SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: '0',
    };
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await stop(s);
  });
  afterAll(async () => {
    await fake.close();
    checkout.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('card export, `a2a reconcile`, a server that fails to bind and a second server on the same store leave a live run alone; both servers complete tasks', async () => {
    const first = await startServer(env);
    servers.push(first);
    fake.enqueue({
      toolCalls: [
        // Runs until the test opens the gate (after everything that must meet a live run).
        {
          name: 'bash',
          arguments: {
            command: 'until [ -e slow.gate ]; do sleep 0.05; done; echo slow-done',
            timeout_seconds: 60,
          },
        },
      ],
    });
    fake.enqueue({ text: 'First answer.' }, { text: 'Second answer.' });
    const before = fake.requests.length;
    const slowId = await sendHarnessTask(first, 'run the slow thing');
    await modelRequests(fake, before + 1);

    const card = join(dir, 'card.json');
    expect((await cliInProcess(['serve', 'a2a', '--export-agent-card', card], env)).status).toBe(0);
    expect(JSON.parse(readFileSync(card, 'utf8')).skills.length).toBeGreaterThan(0);
    const fresh = join(dir, 'fresh');
    const stores = {
      SUPERQODE_A2A_TASK_STORE_PATH: join(fresh, 't.sqlite3'),
      SUPERQODE_A2A_HARNESS_STORE_PATH: join(fresh, 'h.sqlite3'),
    };
    const freshExport = await cliInProcess(['serve', 'a2a', '--export-agent-card', card], {
      ...env,
      ...stores,
    });
    expect(freshExport.status).toBe(0);
    expect(existsSync(fresh)).toBe(false); // the export opened no store file
    const reconcile = cli(
      ['a2a', 'reconcile', '--task-store', env.SUPERQODE_A2A_TASK_STORE_PATH],
      env,
    );
    expect(reconcile.status).toBe(0);
    expect(reconcile.stdout).toContain('0 interrupted task(s)');

    // `npm start` twice in one checkout: the second dies with EADDRINUSE and must touch nothing.
    const clash = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        ...env,
        SUPERQODE_A2A_PORT: new URL(first.url).port,
        SUPERQODE_A2A_LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let clashLog = '';
    clash.stdout!.on('data', (chunk: Buffer) => (clashLog += chunk.toString()));
    const clashExit = await new Promise<number | null>((r) =>
      clash.once('close', (code) => r(code)),
    );
    expect(clashExit).toBe(1);
    expect(clashLog).toContain(
      `Cannot listen on 127.0.0.1:${new URL(first.url).port}: the address is already in use`,
    );
    expect(clashLog).toContain('--port or SUPERQODE_A2A_PORT');
    expect(clashLog).not.toContain('stopped'); // it never started

    const second = await startServer(env);
    servers.push(second);
    const otherId = await sendHarnessTask(second, 'say something');
    expect((await settled(second, otherId)).status.state).toBe('TASK_STATE_COMPLETED');
    expect(
      (await post(first.url, aJsonRpcRequest('GetTask', { id: slowId }), V1)).body.result.status
        .state,
    ).toBe('TASK_STATE_WORKING');

    writeFileSync(join(checkout.dir, 'slow.gate'), '');
    const slow = await settled(first, slowId);
    expect(slow.status.state).toBe('TASK_STATE_COMPLETED');
    const runs = (
      await cliInProcess(
        ['harness', 'runs', '--harness-store', env.SUPERQODE_A2A_HARNESS_STORE_PATH],
        env,
      )
    ).stdout;
    const line = runs.split('\n').find((l) => l.startsWith(slow.metadata.superqodeRunId as string));
    expect(line).toMatch(/\bsucceeded\b/);
  }, 90_000);

  it('when one of two servers is SIGKILLed, the other ends its task FAILED once the lease expires, naming the owner', async () => {
    const [first, second] = await Promise.all([startServer(env), startServer(env)]);
    servers.push(first, second);
    fake.enqueue({
      toolCalls: [
        { name: 'bash', arguments: { command: 'sleep 30 && echo late', timeout_seconds: 60 } },
      ],
    });
    const before = fake.requests.length;
    const id = await sendHarnessTask(first, 'run the very slow thing');
    await modelRequests(fake, before + 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      (await post(second.url, aJsonRpcRequest('GetTask', { id }), V1)).body.result.status.state,
    ).toBe('TASK_STATE_WORKING');
    const firstPid = first.proc.pid;
    await stop(first);

    const failed = await settled(second, id);
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(failed.status.message.parts[0].text).toContain(`:${firstPid}:`);
    expect(failed.status.message.parts[0].text).toContain(`run ${failed.metadata.superqodeRunId}`);
    const runs = (
      await cliInProcess(
        ['harness', 'runs', '--harness-store', env.SUPERQODE_A2A_HARNESS_STORE_PATH],
        env,
      )
    ).stdout;
    const line = runs
      .split('\n')
      .find((l) => l.startsWith(failed.metadata.superqodeRunId as string));
    expect(line).toMatch(/\bfailed\b/);
  }, 90_000);
});
