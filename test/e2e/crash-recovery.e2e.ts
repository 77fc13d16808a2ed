import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import { spawnHealthyMain } from '../utils/built-server';

const ROOT = join(__dirname, '../..');

const startServer = (env: Record<string, string>) => spawnHealthyMain(env, 100);

describe('SIGKILL mid-run, then restart (issue #5 durability)', () => {
  let fake: FakeOpenAiServer;
  let checkout: TempCheckout;
  const dir = mkdtempSync(join(tmpdir(), 'sq-crash-'));
  let env: Record<string, string>;

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
    };
  });
  afterAll(async () => {
    await fake.close();
    checkout.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('nothing stays WORKING and nothing completed is lost; the ledger run is marked failed too', async () => {
    const first = await startServer(env);
    let id: string;
    let completedId: string;
    let contextId: string;
    try {
      const done = await post(
        first.url,
        aJsonRpcRequest('SendMessage', { message: aMessage('which harness for rust') }),
        V1,
      );
      completedId = done.body.result.task.id;
      fake.enqueue({
        toolCalls: [
          { name: 'bash', arguments: { command: 'sleep 30 && echo late', timeout_seconds: 60 } },
        ],
      });
      const sent = await post(
        first.url,
        aJsonRpcRequest('SendMessage', {
          message: aMessage('run the slow thing'),
          configuration: { returnImmediately: true },
        }),
        V1,
      );
      id = sent.body.result.task.id;
      contextId = sent.body.result.task.contextId;
      for (let i = 0; i < 100 && fake.requests.length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      const mid = await post(first.url, aJsonRpcRequest('GetTask', { id }), V1);
      expect(mid.body.result.status.state).toBe('TASK_STATE_WORKING');
    } finally {
      first.proc.kill('SIGKILL');
      await new Promise((r) => first.proc.once('exit', r));
    }

    const second = await startServer(env);
    try {
      const got = await post(second.url, aJsonRpcRequest('GetTask', { id }), V1);
      expect(got.body.result.status.state).toBe('TASK_STATE_FAILED');
      const runId = got.body.result.metadata.superqodeRunId as string;
      expect(got.body.result.status.message.parts[0].text).toContain(`run ${runId}`);
      // Anonymous ListTasks needs a contextId (issue #11.7).
      const working = await get(
        `${second.url}/tasks?status=TASK_STATE_WORKING&contextId=${contextId}`,
        { 'A2A-Version': '1.0' },
      );
      expect(working.body.tasks).toEqual([]);
      const kept = await post(second.url, aJsonRpcRequest('GetTask', { id: completedId }), V1);
      expect(kept.body.result.status.state).toBe('TASK_STATE_COMPLETED');
      const runs = spawnSync(
        process.execPath,
        [
          join(ROOT, 'dist/cli.js'),
          'harness',
          'runs',
          '--harness-store',
          env.SUPERQODE_A2A_HARNESS_STORE_PATH,
        ],
        { encoding: 'utf8' },
      );
      const line = runs.stdout.split('\n').find((l) => l.startsWith(runId));
      expect(line).toMatch(/\bfailed\b/);
    } finally {
      second.proc.kill('SIGKILL');
    }
  });
});
