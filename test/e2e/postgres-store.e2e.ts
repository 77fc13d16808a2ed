import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TaskState } from '@a2a-js/sdk';
import type { Message, StreamResponse, Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import type { Client } from '@a2a-js/sdk/client';
import { DataSource } from 'typeorm';
import { withSlowExecutor } from '../utils/executor-override';
import { createTestDatabase, storeBackends } from '../utils/postgres';
import type { TestDatabase } from '../utils/postgres';
import { startTestServer } from '../utils/test-app';
import type { TestServer } from '../utils/test-app';
import { TaskRetention } from '../../src/modules/tasks/lifecycle/task-retention.service';
import { anSdkSendRequest } from '../fixtures/sdk-requests';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const pg = storeBackends().includes('postgres');

const request = (text: string, returnImmediately = false, msg: Partial<Message> = {}) =>
  anSdkSendRequest(text, { message: msg, returnImmediately });
const listReq = (contextId: string) => ({
  tenant: '',
  contextId,
  status: 0,
  pageSize: 2,
  pageToken: '',
  historyLength: undefined,
  statusTimestampAfter: undefined,
  includeArtifacts: false,
});
async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

(pg ? describe : describe.skip)('the server on PostgreSQL (--database-url, issue #15)', () => {
  let database: TestDatabase;
  const password = () => decodeURIComponent(new URL(database.url).password);
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('refuses to start on a schema that was never migrated, naming `superqode db migrate`, never the password', async () => {
    const error = await startTestServer({ SUPERQODE_A2A_DATABASE_URL: database.url }).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /not current \(pending: CreateA2aTasksPostgres1765000000001\).*superqode db migrate/,
    );
    expect((error as Error).message).not.toContain(password());
  });

  it('`superqode db migrate` applies both schemas once, then reports them current; output never shows the password', async () => {
    const first = await run(process.execPath, [
      CLI,
      'db',
      'migrate',
      '--database-url',
      database.url,
    ]);
    expect(first.stdout).toContain('tasks: applied CreateA2aTasksPostgres1765000000001');
    expect(first.stdout).toContain(
      'harness ledger: applied CreateHarnessLedgerPostgres1765000000001',
    );
    const again = await run(process.execPath, [CLI, 'db', 'migrate'], {
      env: { ...process.env, SUPERQODE_A2A_DATABASE_URL: database.url },
    });
    expect(again.stdout).not.toContain('applied');
    expect(again.stdout).toMatch(
      /tasks: schema current \(postgres:\/\/superqode@127\.0\.0\.1:\d+\/sq_test_/,
    );
    for (const out of [first.stdout, first.stderr, again.stdout, again.stderr])
      expect(out).not.toContain(password());
  }, 60_000);

  it('a bad password fails `db migrate` with exit 1 and a message without the URL nor the password', async () => {
    const wrong = new URL(database.url);
    wrong.password = 'not-the-password-42';
    const failed = await run(process.execPath, [
      CLI,
      'db',
      'migrate',
      '--database-url',
      wrong.toString(),
    ]).catch((e: { code: number; stderr: string; stdout: string }) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr).toMatch(
      /error: tasks \(postgres:\/\/superqode@127\.0\.0\.1:\d+\/sq_test_\w+\): /,
    );
    expect((failed as { stderr: string }).stderr).not.toContain('not-the-password-42');
  }, 60_000);

  describe('serving (SDK client, JSON-RPC 1.0)', () => {
    let a: TestServer;
    let b: TestServer;
    let client: Client;
    let clientOfB: Client;
    beforeAll(async () => {
      const env = { SUPERQODE_A2A_DATABASE_URL: database.url, SUPERQODE_A2A_MIGRATE: true };
      a = await startTestServer(env, { customize: withSlowExecutor });
      b = await startTestServer(env, { customize: withSlowExecutor });
      client = await new ClientFactory().createFromUrl(a.url);
      clientOfB = await new ClientFactory().createFromUrl(b.url);
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('sends, gets and lists tasks stored in PostgreSQL (no SQLite file is created)', async () => {
      const contextId = randomUUID();
      const sent = (await client.sendMessage(
        request('which harness is open source?', false, { contextId }),
      )) as Task;
      expect(sent.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect((await client.getTask({ id: sent.id, tenant: '', historyLength: undefined })).id).toBe(
        sent.id,
      );
      await client.sendMessage(request('and with a sandbox?', false, { contextId }));
      await client.sendMessage(request('and MIT licensed?', false, { contextId }));
      const page1 = await client.listTasks(listReq(contextId));
      const page2 = await client.listTasks({
        ...listReq(contextId),
        pageToken: page1.nextPageToken,
      });
      expect([
        page1.tasks.length,
        page1.totalSize,
        page2.tasks.length,
        page2.nextPageToken,
      ]).toEqual([2, 3, 1, '']);
      const rows = await withDb(database.url, (ds) =>
        ds.query('SELECT "id" FROM "a2a_tasks" WHERE "context_id" = $1', [contextId]),
      );
      expect(rows).toHaveLength(3);
      expect(existsSync(join(a.dir, 'tasks.sqlite3'))).toBe(false);
    });

    it('streams a task to COMPLETED, and a returnImmediately task cancels to CANCELED', async () => {
      const events = await collect(client.sendMessageStream(request('slow 3')));
      expect(events[0].payload?.$case).toBe('task');
      const last = events.at(-1)!.payload as { value: { status: { state: TaskState } } };
      expect(last.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const task = (await client.sendMessage(request('slow 50', true))) as Task;
      const canceled = await client.cancelTask({ id: task.id, tenant: '', metadata: {} });
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect(
        (await client.getTask({ id: task.id, tenant: '', historyLength: undefined })).status?.state,
      ).toBe(TaskState.TASK_STATE_CANCELED);
    });

    it('a second instance on the same database answers GetTask and ListTasks for tasks the first one ran', async () => {
      const contextId = randomUUID();
      const sent = (await client.sendMessage(
        request('which harness for go?', false, { contextId }),
      )) as Task;
      const fromB = await clientOfB.getTask({ id: sent.id, tenant: '', historyLength: undefined });
      expect([fromB.id, fromB.status?.state]).toEqual([sent.id, TaskState.TASK_STATE_COMPLETED]);
      expect((await clientOfB.listTasks(listReq(contextId))).tasks.map((t) => t.id)).toEqual([
        sent.id,
      ]);
    });

    it('retention deletes finished tasks past the TTL in batches on PostgreSQL, never unfinished ones', async () => {
      const row = (id: string, state: string) =>
        `('', 'old-owner', '${id}', 'ctx-old', '${state}', 0, NULL, NULL, NULL, NULL, '1.0', 0, 0, NULL, NULL)`;
      await withDb(database.url, (ds) =>
        ds.query(
          'INSERT INTO "a2a_tasks" VALUES ' +
            [
              row('old-1', 'TASK_STATE_COMPLETED'),
              row('old-2', 'TASK_STATE_FAILED'),
              row('old-3', 'TASK_STATE_CANCELED'),
              row('old-4', 'TASK_STATE_INPUT_REQUIRED'),
            ].join(', '),
        ),
      );
      expect(await a.app.get(TaskRetention, { strict: false }).prune()).toBe(3);
      const left = await withDb(database.url, (ds) =>
        ds.query(`SELECT "id" FROM "a2a_tasks" WHERE "owner" = 'old-owner'`),
      );
      expect(left).toEqual([{ id: 'old-4' }]);
    });

    it('a NUL character in a context id, task id or tenant is invalid params (-32602), not a 500 (PostgreSQL text cannot hold it)', async () => {
      const rpc = async (id: number, method: string, params: unknown) => {
        const res = await fetch(`${a.url}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        });
        return [res.status, ((await res.json()) as { error?: { code: number } }).error?.code];
      };
      const message = (extra: object) => ({
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'which harness is open source?' }],
        ...extra,
      });
      expect(await rpc(1, 'SendMessage', { message: message({ contextId: 'c\u0000x' }) })).toEqual([
        200, -32602,
      ]);
      expect(await rpc(2, 'SendMessage', { tenant: 't\u0000', message: message({}) })).toEqual([
        200, -32602,
      ]);
      expect(await rpc(3, 'GetTask', { id: 'a\u0000b' })).toEqual([200, -32602]);
      expect(await rpc(4, 'ListTasks', { contextId: 'a\u0000b' })).toEqual([200, -32602]);
    });

    it('/health reports the PostgreSQL store reachable and writable', async () => {
      const health = (await (await fetch(`${a.url}/health`)).json()) as {
        status: string;
        taskStore: unknown;
      };
      expect(health.status).toBe('ok');
      expect(health.taskStore).toEqual({
        durable: true,
        backend: 'postgres',
        reachable: true,
        writable: true,
        failedWrites: 0,
      });
      expect(JSON.stringify(health)).not.toContain(password());
    });
  });
});

async function withDb<T>(url: string, work: (ds: DataSource) => Promise<T>): Promise<T> {
  const ds = await new DataSource({ type: 'postgres', url, poolSize: 1 }).initialize();
  try {
    return await work(ds);
  } finally {
    await ds.destroy();
  }
}
