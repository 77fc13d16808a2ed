import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { openStore } from '../../common/database/store-migrations';
import { createTestDatabase, storeBackends } from '../../../test/utils/postgres';
import type { TestDatabase } from '../../../test/utils/postgres';
import {
  CLUSTER_CHANNEL,
  MAX_PAYLOAD_BYTES,
  PostgresTaskEventChannel,
  changedPayloads,
} from './cluster/postgres-task-event-channel';
import { GroupCommitTaskStore } from './group-commit.task-store';
import { MAX_ROWS_PER_STATEMENT } from './postgres-batch-upsert';
import { tasksDataSourceOptions } from './tasks-datasource';
import { TypeOrmTaskStore } from './typeorm-task.store';

const alice = new ServerCallContext({ user: { isAuthenticated: true, userName: 'alice' } });
const aTask = (id: string, state = TaskState.TASK_STATE_COMPLETED): Task => ({
  id,
  contextId: 'ctx-1',
  metadata: undefined,
  status: { state, message: undefined, timestamp: '2026-12-01T00:00:00.000Z' },
  artifacts: [],
  history: [],
});
const keyOf = (taskId: string) => ({ tenant: '', owner: 'alice', taskId });

describe(changedPayloads.name, () => {
  it('names every task once, in order, in as few payloads as fit the NOTIFY limit', () => {
    const keys = Array.from({ length: 300 }, (_, i) => keyOf(`task-${i}-${'x'.repeat(60)}`));
    const payloads = changedPayloads(keys);
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.length).toBeLessThanOrEqual(4);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const named = payloads.flatMap((p) => (JSON.parse(p) as { keys: string[][] }).keys);
    expect(named).toEqual(keys.map((k) => [k.tenant, k.owner, k.taskId]));
  });

  it('announces a key too long for any payload as resync (receivers reload), the others as usual', () => {
    const payloads = changedPayloads([keyOf('a'), keyOf('é'.repeat(4_000)), keyOf('b')]);
    expect(payloads.map((p) => JSON.parse(p) as unknown)).toEqual([
      {
        kind: 'changed',
        keys: [
          ['', 'alice', 'a'],
          ['', 'alice', 'b'],
        ],
      },
      { kind: 'resync' },
    ]);
  });
});

(storeBackends().includes('postgres') ? describe : describe.skip)(
  'group commit and cluster notifications on PostgreSQL (issue #15)',
  () => {
    let database: TestDatabase;
    let dataSource: DataSource;
    let listener: Client;
    let received: string[];
    let channel: PostgresTaskEventChannel;
    let store: GroupCommitTaskStore;

    beforeAll(async () => {
      database = await createTestDatabase();
      dataSource = await openStore(
        tasksDataSourceOptions({ path: null, databaseUrl: database.url, migrate: true }),
      );
      listener = new Client({ connectionString: database.url });
      await listener.connect();
      listener.on('notification', (n) => received.push(n.payload ?? ''));
      await listener.query(`LISTEN ${CLUSTER_CHANNEL}`);
      channel = new PostgresTaskEventChannel(database.url, (sql, p) => dataSource.query(sql, p));
      await channel.onModuleInit();
    });
    beforeEach(() => {
      received = [];
      store = new GroupCommitTaskStore(
        new TypeOrmTaskStore(dataSource),
        channel.batchNotifications(),
      );
    });
    afterAll(async () => {
      await channel.onApplicationShutdown();
      await listener.end();
      await dataSource.destroy();
      await database.drop();
    });

    /** Every notification sent before this call, received: a marker sent last comes last. */
    async function drained(): Promise<string[]> {
      const marker = `marker-${Math.random()}`;
      await dataSource.query('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, marker]);
      for (let i = 0; i < 400 && !received.includes(marker); i++)
        await new Promise((r) => setTimeout(r, 10));
      return received.filter((p) => p !== marker);
    }

    const stateOf = async (id: string) =>
      (
        (await dataSource.query('SELECT "status_state" FROM "a2a_tasks" WHERE "id" = $1', [
          id,
        ])) as { status_state: string }[]
      )[0]?.status_state;

    it('commits the saves of one batch with one notification naming each task once', async () => {
      await Promise.all(['t-1', 't-2', 't-3'].map((id) => store.save(aTask(id), alice)));
      expect(await drained()).toEqual([
        '{"kind":"changed","keys":[["","alice","t-1"],["","alice","t-2"],["","alice","t-3"]]}',
      ]);
      expect(await stateOf('t-3')).toBe('TASK_STATE_COMPLETED');
    });

    it('two saves of one task in one batch: the last one is stored, the task announced once', async () => {
      await Promise.all([
        store.save(aTask('twice', TaskState.TASK_STATE_WORKING), alice),
        store.save(aTask('other'), alice),
        store.save(aTask('twice', TaskState.TASK_STATE_COMPLETED), alice),
      ]);
      expect(await stateOf('twice')).toBe('TASK_STATE_COMPLETED');
      expect(await drained()).toEqual([
        '{"kind":"changed","keys":[["","alice","other"],["","alice","twice"]]}',
      ]);
    });

    it('a batch larger than one notification payload is announced whole, in several', async () => {
      const ids = Array.from({ length: 250 }, (_, i) => `long-${i}-${'y'.repeat(80)}`);
      await Promise.all(ids.map((id) => store.save(aTask(id), alice)));
      const payloads = await drained();
      expect(payloads.length).toBeGreaterThan(1);
      const named = payloads.flatMap((p) => (JSON.parse(p) as { keys: string[][] }).keys);
      expect(named.map((k) => k[2])).toEqual(ids);
      const [{ n }] = (await dataSource.query(
        `SELECT count(*)::int AS "n" FROM "a2a_tasks" WHERE "id" LIKE 'long-%'`,
      )) as { n: number }[];
      expect(n).toBe(ids.length);
    });

    it('a batch of more tasks than one statement takes (65,535 parameters) commits whole', async () => {
      const ids = Array.from({ length: 4_500 }, (_, i) => `many-${i}`);
      await Promise.all(ids.map((id) => store.save(aTask(id), alice)));
      const named = (await drained()).flatMap((p) => (JSON.parse(p) as { keys: string[][] }).keys);
      expect(named.map((k) => k[2])).toEqual(ids);
      const [{ n }] = (await dataSource.query(
        `SELECT count(*)::int AS "n" FROM "a2a_tasks" WHERE "id" LIKE 'many-%'`,
      )) as { n: number }[];
      expect(n).toBe(ids.length);
    });

    it('a batch of several statements is one transaction: a rejected last row writes none', async () => {
      const inner = new TypeOrmTaskStore(dataSource);
      const ids = Array.from({ length: MAX_ROWS_PER_STATEMENT + 1 }, (_, i) => `tx-${i}`);
      const rows = ids.map((id) => inner.rowOf(aTask(id), alice));
      rows[ids.length - 1].values[5] = 'not a number';
      await expect(inner.commitRows(rows, channel.batchNotifications())).rejects.toThrow();
      expect(await stateOf('tx-0')).toBeUndefined();
      expect(await drained()).toEqual([]);
    });

    it('a rejected batch writes nothing and announces nothing', async () => {
      const inner = new TypeOrmTaskStore(dataSource);
      const rows = [inner.rowOf(aTask('bad-0'), alice), inner.rowOf(aTask('bad-1'), alice)];
      rows[1].values[5] = 'not a number';
      await expect(inner.commitRows(rows, channel.batchNotifications())).rejects.toThrow();
      expect(await stateOf('bad-0')).toBeUndefined();
      expect(await drained()).toEqual([]);
    });

    it('announces many tasks ended outside a batch (a reconciler) in one notification', async () => {
      const keys = ['o-1', 'o-2', 'o-3'].map(keyOf);
      await channel.publishChanged(keys);
      expect(await drained()).toEqual([
        '{"kind":"changed","keys":[["","alice","o-1"],["","alice","o-2"],["","alice","o-3"]]}',
      ]);
    });

    it('an instance watching no task reads no changed notification; a watched task is delivered', async () => {
      const parse = jest.spyOn(JSON, 'parse');
      try {
        await store.save(aTask('unwatched'), alice);
        await drained();
        await new Promise((r) => setTimeout(r, 50));
        const parsedChanged = () =>
          parse.mock.calls.filter(([text]) => String(text).startsWith('{"kind":"changed"')).length;
        expect(parsedChanged()).toBe(0);
        let woken = 0;
        const stop = channel.watch(keyOf('watched'), () => (woken += 1));
        await store.save(aTask('watched'), alice);
        await drained();
        for (let i = 0; i < 200 && woken === 0; i++) await new Promise((r) => setTimeout(r, 10));
        stop();
        expect(woken).toBe(1);
        expect(parsedChanged()).toBe(1);
      } finally {
        parse.mockRestore();
      }
    });
  },
);
