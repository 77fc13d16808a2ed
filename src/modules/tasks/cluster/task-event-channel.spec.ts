import { DataSource } from 'typeorm';
import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { createTestDatabase, storeBackends } from '../../../../test/utils/postgres';
import type { TestDatabase } from '../../../../test/utils/postgres';
import { CLUSTER_CHANNEL, PostgresTaskEventChannel } from './postgres-task-event-channel';
import type { ClusterSignal } from './task-event-channel';
import { eventsBetween } from './task-follower';

const key = { tenant: '', owner: 'alice', taskId: 't1' };

function task(state: TaskState, artifacts: Task['artifacts'] = []): Task {
  return {
    id: 't1',
    contextId: 'c1',
    status: { state, message: undefined, timestamp: `2026-12-01T00:00:0${state}Z` },
    artifacts,
    history: [],
    metadata: {},
  };
}

const artifact = (text: string) => ({
  artifactId: 'a1',
  name: 'answer',
  description: '',
  parts: [
    {
      content: { $case: 'text' as const, value: text },
      metadata: {},
      filename: '',
      mediaType: 'text/plain',
    },
  ],
  metadata: {},
  extensions: [],
});

describe('eventsBetween (a follower catching up from one stored snapshot to the next)', () => {
  it('yields the changed artifact whole, then the new status, last', () => {
    const before = task(TaskState.TASK_STATE_WORKING, [artifact('Hel')]);
    const after = task(TaskState.TASK_STATE_COMPLETED, [artifact('Hello')]);
    const events = eventsBetween(before, after);
    expect(events.map((e) => e.payload?.$case)).toEqual(['artifactUpdate', 'statusUpdate']);
    expect(events[0].payload?.value).toMatchObject({
      append: false,
      lastChunk: true,
      artifact: artifact('Hello'),
    });
    expect(events[1].payload?.value).toMatchObject({
      status: { state: TaskState.TASK_STATE_COMPLETED },
    });
  });

  it('yields nothing for an unchanged task (a repeated or late notification)', () => {
    const same = task(TaskState.TASK_STATE_WORKING, [artifact('Hi')]);
    expect(eventsBetween(same, structuredClone(same))).toEqual([]);
  });
});

(storeBackends().includes('postgres') ? describe : describe.skip)(
  'PostgresTaskEventChannel (LISTEN/NOTIFY, issue #15)',
  () => {
    let database: TestDatabase;
    let db: DataSource;
    const channels: PostgresTaskEventChannel[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
      db = await new DataSource({ type: 'postgres', url: database.url, poolSize: 2 }).initialize();
    });
    afterAll(async () => {
      for (const c of channels) await c.onApplicationShutdown();
      await db.destroy();
      await database.drop();
    });

    async function channel(): Promise<{ c: PostgresTaskEventChannel; got: ClusterSignal[] }> {
      const c = new PostgresTaskEventChannel(database.url, (sql, p) => db.query(sql, p));
      channels.push(c);
      const got: ClusterSignal[] = [];
      c.listen((s) => got.push(s));
      await c.onModuleInit();
      await c.ready();
      return { c, got };
    }

    async function until(check: () => boolean): Promise<void> {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
    }

    it('delivers signals to every listening instance in publish order', async () => {
      const a = await channel();
      const b = await channel();
      for (let i = 0; i < 20; i++) await a.c.publish({ kind: 'ack', request: String(i) });
      await until(() => b.got.length === 20 && a.got.length === 20);
      const expected = Array.from({ length: 20 }, (_, i) => ({ kind: 'ack', request: String(i) }));
      expect(b.got).toEqual(expected);
      expect(a.got).toEqual(expected);
    });

    it('reconnects after its connection is killed, says resync, and delivers again', async () => {
      const a = await channel();
      await db.query(
        'SELECT pg_terminate_backend("pid") FROM pg_stat_activity WHERE "datname" = current_database() AND "query" = $1',
        [`LISTEN ${CLUSTER_CHANNEL}`],
      );
      await until(() => a.got.some((s) => s.kind === 'resync'));
      expect(a.got.filter((s) => s.kind === 'resync').length).toBeGreaterThanOrEqual(1);
      await a.c.ready();
      let changed = 0;
      a.c.watch(key, () => (changed += 1));
      await a.c.publish({ kind: 'changed', key });
      await until(() => changed > 0);
      expect(changed).toBe(1);
    });
  },
);
