import { getDataSourceToken } from '@nestjs/typeorm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { startTestServer } from '../utils/test-app';

/** Anonymous callers list only the tasks of a contextId they name (issue #11.7): one for all. */
const CTX = 'store-health-e2e';
import type { TestServer } from '../utils/test-app';
import { CreateA2aTasks1733000000000 } from '../../src/modules/tasks/migrations/1733000000000-create-a2a-tasks';
import { TASKS_CONNECTION } from '../../src/modules/tasks/tasks.constants';

const SHORTLIST = 'which harness for rust';

async function until<T>(
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  deadlineMs = 15_000,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('task store health, failed writes, retention and list caps (issue #11.16, #11.17)', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a read-only store (PRAGMA query_only) is degraded with 503; a send fails with an internal error and its task is ended FAILED once the store accepts writes', async () => {
    server = await startTestServer({ SUPERQODE_A2A_HEARTBEAT_MS: 200 });
    const db = server.app.get<DataSource>(getDataSourceToken(TASKS_CONNECTION));
    const ok = await get(`${server.url}/health`);
    expect(ok.status).toBe(200);
    expect(ok.body.taskStore).toMatchObject({ reachable: true, writable: true });

    await db.query('PRAGMA query_only = ON');
    const degraded = await get(`${server.url}/health`);
    expect(degraded.status).toBe(503);
    expect(degraded.body).toMatchObject({
      status: 'degraded',
      taskStore: { reachable: true, writable: false },
    });
    const sent = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage(SHORTLIST, { contextId: CTX }) }),
      V1,
    );
    expect(sent.body.error.code).toBe(-32603);
    expect(JSON.stringify(sent.body)).not.toContain('readonly');

    await db.query('PRAGMA query_only = OFF');
    const healthy = await until(
      () => get(`${server!.url}/health`),
      (r) => r.status === 200,
    );
    expect(healthy.body.taskStore).toMatchObject({ writable: true, failedWrites: 0 });
    const listed = await get(`${server.url}/tasks?contextId=${CTX}`, { 'A2A-Version': '1.0' });
    expect(listed.body.tasks).toHaveLength(1);
    expect(listed.body.tasks[0].status.state).toBe('TASK_STATE_FAILED');
    expect(listed.body.tasks[0].status.message.parts[0].text).toContain(
      'could not record this task',
    );
  });

  it('ListTasks ends a page before its stored JSON passes the byte cap, with a next page token that reaches every task once', async () => {
    server = await startTestServer({ SUPERQODE_A2A_MAX_LIST_REPLY_BYTES: 4096 });
    const padding = ' please'.repeat(300);
    for (let i = 0; i < 5; i++) {
      const sent = await post(
        server.url,
        aJsonRpcRequest('SendMessage', {
          message: aMessage(`${SHORTLIST} ${i}${padding}`, { contextId: CTX }),
        }),
        V1,
      );
      expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    }
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = await post(
        server.url,
        aJsonRpcRequest('ListTasks', { contextId: CTX, pageSize: 100, pageToken: token }),
        V1,
      );
      const { tasks, nextPageToken, totalSize } = page.body.result;
      expect(totalSize).toBe(5);
      expect(tasks.length).toBeLessThan(5);
      seen.push(...tasks.map((t: { id: string }) => t.id));
      token = nextPageToken;
      pages++;
    } while (token && pages < 10);
    expect(new Set(seen).size).toBe(5);
    expect(seen).toHaveLength(5);
  });

  it('caps ListTasks pageSize at --max-page-size and echoes the page size served', async () => {
    server = await startTestServer({ SUPERQODE_A2A_MAX_PAGE_SIZE: 2 });
    for (let i = 0; i < 3; i++) {
      await post(
        server.url,
        aJsonRpcRequest('SendMessage', {
          message: aMessage(`${SHORTLIST} ${i}`, { contextId: CTX }),
        }),
        V1,
      );
    }
    const page = await post(
      server.url,
      aJsonRpcRequest('ListTasks', { contextId: CTX, pageSize: 100 }),
      V1,
    );
    expect(page.body.result.tasks).toHaveLength(2);
    expect(page.body.result.pageSize).toBe(2);
    expect(page.body.result.nextPageToken).not.toBe('');
  });

  it('prunes the oldest finished tasks above --max-tasks in the background (start-up pass)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-retain-'));
    try {
      server = await startTestServer({ SUPERQODE_A2A_MAX_TASKS: 3 }, { dir });
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const sent = await post(
          server.url,
          aJsonRpcRequest('SendMessage', {
            message: aMessage(`${SHORTLIST} ${i}`, { contextId: CTX }),
          }),
          V1,
        );
        ids.push(sent.body.result.task.id as string);
      }
      await server.close({ keepDir: true });
      server = await startTestServer({ SUPERQODE_A2A_MAX_TASKS: 3 }, { dir });
      const listed = await until(
        () => get(`${server!.url}/tasks?contextId=${CTX}`, { 'A2A-Version': '1.0' }),
        (r) => r.body.totalSize === 3,
      );
      expect(listed.body.tasks.map((t: { id: string }) => t.id).sort()).toEqual(
        ids.slice(3).sort(),
      );
    } finally {
      await server?.close();
      server = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('upgrades a store made by the old schema in place; its unfinished task (never leased) is reconciled FAILED', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-upgrade-'));
    const old = new DataSource({
      type: 'better-sqlite3',
      database: join(dir, 'tasks.sqlite3'),
      migrations: [CreateA2aTasks1733000000000],
      migrationsTableName: 'a2a_tasks_migrations',
    });
    await old.initialize();
    await old.runMigrations();
    const row = (id: string, state: string) => [
      '',
      'unknown',
      id,
      'ctx',
      state,
      1_700_000_000_000,
      JSON.stringify({ state, timestamp: '2023-11-14T22:13:20.000Z' }),
      '1.0',
      1,
      1,
    ];
    const insert =
      'INSERT INTO a2a_tasks (tenant, owner, id, context_id, status_state, status_timestamp_ms, status, protocol_version, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
    await old.query(insert, row('old-working', 'TASK_STATE_WORKING'));
    await old.query(insert, row('old-done', 'TASK_STATE_COMPLETED'));
    await old.destroy();
    try {
      // TTL off: the old rows' save times are in 1970.
      server = await startTestServer({ SUPERQODE_A2A_TASK_TTL_DAYS: 0 }, { dir });
      const db = server.app.get<DataSource>(getDataSourceToken(TASKS_CONNECTION));
      const states = () =>
        db.query(
          'SELECT id, status_state AS state, lease_owner AS leaseOwner FROM a2a_tasks ORDER BY id',
        );
      const rows = await until(
        states,
        (r: { state: string }[]) =>
          r.length > 0 && r.every((t) => t.state !== 'TASK_STATE_WORKING'),
      );
      expect(rows).toEqual([
        { id: 'old-done', state: 'TASK_STATE_COMPLETED', leaseOwner: null },
        { id: 'old-working', state: 'TASK_STATE_FAILED', leaseOwner: null },
      ]);
      const migrations = await db.query('SELECT name FROM a2a_tasks_migrations ORDER BY id');
      expect(migrations.map((m: { name: string }) => m.name)).toEqual([
        'CreateA2aTasks1733000000000',
        'AddTaskLeases1765000000000',
        'AddTaskRetentionIndex1765000000002',
      ]);
    } finally {
      await server?.close();
      server = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
