import { ChildProcess } from 'node:child_process';
import { DataSource } from 'typeorm';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import { createTestDatabase, storeBackends } from '../utils/postgres';
import type { TestDatabase } from '../utils/postgres';
import { spawnHealthyMain } from '../utils/built-server';

const pg = storeBackends().includes('postgres');

interface Server {
  proc: ChildProcess;
  url: string;
}

const startServer = (env: Record<string, string>) => spawnHealthyMain(env, 200);

async function stop(server: Server): Promise<void> {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  server.proc.kill('SIGKILL');
  await new Promise((r) => server.proc.once('exit', r));
}

/** Polls GetTask until the task leaves SUBMITTED/WORKING (or the deadline passes). */
async function settled(server: Server, id: string, deadlineMs = 30_000): Promise<any> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const got = await post(server.url, aJsonRpcRequest('GetTask', { id }), V1);
    // A GetTask error on the survivor is a defect to see, not to poll past (it flaked 2 in 28).
    if (got.body?.result === undefined)
      throw new Error(`GetTask answered HTTP ${got.status}: ${got.text.slice(0, 500)}`);
    const state = got.body.result?.status?.state as string | undefined;
    if (
      (state && !['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'].includes(state)) ||
      Date.now() > until
    )
      return got.body.result;
    await new Promise((r) => setTimeout(r, 150));
  }
}

(pg ? describe : describe.skip)(
  'failover on PostgreSQL: two instances, one SIGKILLed (issue #15)',
  () => {
    let fake: FakeOpenAiServer;
    let checkout: TempCheckout;
    let database: TestDatabase;
    let env: Record<string, string>;
    const servers: Server[] = [];

    beforeAll(async () => {
      fake = await FakeOpenAiServer.start();
      checkout = tempCheckout({ 'README.md': '# demo\n' });
      database = await createTestDatabase();
      env = {
        SUPERQODE_A2A_DATABASE_URL: database.url,
        // Both instances migrate at once: the advisory lock lets one apply, the other find it current.
        SUPERQODE_A2A_MIGRATE: 'true',
        SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
        SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
        SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
        SUPERQODE_A2A_WORKING_DIR: checkout.dir,
        SUPERQODE_A2A_LEASE_MS: '1500',
        SUPERQODE_A2A_HEARTBEAT_MS: '250',
        // `settled` polls GetTask every 150 ms: the anonymous default (10 per minute) answers the
        // 11th poll 429 (-32029) when reconciling takes over ~1.5 s (the flakes seen 2 in 28).
        SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: '0',
      };
    });
    afterAll(async () => {
      for (const s of servers.splice(0)) await stop(s);
      await fake.close();
      checkout.remove();
      await database.drop();
    });

    it("the other instance ends the killed one's WORKING task FAILED, naming the owner, and fails its ledger run", async () => {
      const [first, second] = await Promise.all([startServer(env), startServer(env)]);
      servers.push(first, second);
      fake.enqueue({
        toolCalls: [
          { name: 'bash', arguments: { command: 'sleep 30 && echo late', timeout_seconds: 60 } },
        ],
      });
      const before = fake.requests.length;
      const sent = await post(
        first.url,
        aJsonRpcRequest('SendMessage', {
          message: aMessage('run the very slow thing'),
          configuration: { returnImmediately: true },
        }),
        V1,
      );
      const id = sent.body.result.task.id as string;
      for (let i = 0; i < 200 && fake.requests.length <= before; i++)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300));
      expect(
        (await post(second.url, aJsonRpcRequest('GetTask', { id }), V1)).body.result.status.state,
      ).toBe('TASK_STATE_WORKING');
      const firstPid = first.proc.pid;
      await stop(first);

      const failed = await settled(second, id);
      expect(failed.status.state).toBe('TASK_STATE_FAILED');
      expect(failed.status.message.parts[0].text).toContain(`:${firstPid}:`);
      const runId = failed.metadata.superqodeRunId as string;
      expect(failed.status.message.parts[0].text).toContain(`run ${runId}`);
      const ds = await new DataSource({
        type: 'postgres',
        url: database.url,
        poolSize: 1,
      }).initialize();
      try {
        let run: { status: string; error: string }[] = [];
        for (let i = 0; i < 100; i++) {
          run = await ds.query('SELECT "status", "error" FROM "runs" WHERE "id" = $1', [runId]);
          if (run[0]?.status !== 'running') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(run[0].status).toBe('failed');
        expect(run[0].error).toContain(`:${firstPid}:`);
        const migrations = await ds.query('SELECT "name" FROM "a2a_tasks_migrations"');
        expect(migrations).toEqual([{ name: 'CreateA2aTasksPostgres1765000000001' }]);
      } finally {
        await ds.destroy();
      }
    }, 90_000);
  },
);
