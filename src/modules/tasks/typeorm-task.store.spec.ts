import { Task, TaskState } from '@a2a-js/sdk';
import type { AgentCard } from '@a2a-js/sdk';
import { RequestMalformedError, toJsonRpcError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, InMemoryTaskStore, ServerCallContext } from '@a2a-js/sdk/server';
import { Injectable, Logger, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { taskRowValues, toTaskEntity, UPSERT_TASK_SQL } from './task.entity';
import { tasksDataSourceOptions } from './tasks-datasource';
import { TASK_STORE } from './tasks.constants';
import {
  MEMORY_MODE_MAX_BYTES,
  MEMORY_MODE_MAX_TASKS,
  TasksModule,
  tasksModuleOptionsFrom,
} from './tasks.module';
import { decodePageToken, encodePageToken, listQueries } from './task-list-queries';
import { TypeOrmTaskStore } from './typeorm-task.store';
import { TaskStoreClosedError } from './task-store-closed.error';
import { MemoryTaskStore } from './memory-task.store';
import { TaskWriteFailures } from './task-write-failures';
import { openStore } from '../../common/database/store-migrations';
import { createTestDatabase, storeBackends } from '../../../test/utils/postgres';
import type { TestDatabase } from '../../../test/utils/postgres';

import {
  aMessage,
  aTask,
  alice,
  at,
  ctxOf,
  ids,
  listReq,
  LIST_SPECS,
  part,
  T0,
} from '../../../test/fixtures/task-store';

describe.each(storeBackends())(`${TypeOrmTaskStore.name} on %s`, (backend) => {
  let dir: string;
  let file: string;
  let database: TestDatabase | undefined;
  let dataSource: DataSource;
  let store: TypeOrmTaskStore;
  const sqliteOnly = backend === 'sqlite' ? it : it.skip;
  const open = async () =>
    database
      ? openStore(tasksDataSourceOptions({ path: null, databaseUrl: database.url, migrate: true }))
      : new DataSource(tasksDataSourceOptions(file)).initialize();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'task-store-'));
    file = join(dir, 'nested', 'tasks.sqlite3');
    database = backend === 'postgres' ? await createTestDatabase() : undefined;
    dataSource = await open();
    store = new TypeOrmTaskStore(dataSource);
  });
  afterEach(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips every part kind through Task.toJSON/fromJSON and returns fresh objects', async () => {
    const task = aTask('t-1');
    task.metadata = { origin: 'spec', n: 1 };
    task.status!.message = aMessage('s-1', [
      part({ $case: 'data', value: { a: [1, null, true], b: { c: 'd' } } }),
    ]);
    task.history = [
      aMessage('m-1', [
        part({ $case: 'text', value: 'héllo ✓' }, { metadata: { k: 'v' } }),
        part(
          { $case: 'raw', value: Buffer.from([0, 1, 2, 254, 255]) },
          { filename: 'a.bin', mediaType: 'application/octet-stream' },
        ),
        part(
          { $case: 'url', value: 'https://example.com/f.pdf' },
          { filename: 'f.pdf', mediaType: 'application/pdf' },
        ),
        part({ $case: 'data', value: [1, 'two'] }),
      ]),
    ];
    await store.save(task, alice);
    const loaded = await store.load('t-1', alice);
    expect(loaded).toEqual(task);
    expect(loaded!.history[0].parts[1].content).toEqual({
      $case: 'raw',
      value: Buffer.from([0, 1, 2, 254, 255]),
    });
    loaded!.history.length = 0;
    expect((await store.load('t-1', alice))!.history).toHaveLength(1);
    expect(await store.load('missing', alice)).toBeUndefined();
  });

  it('scopes rows by owner and tenant (SDK resolveUserScope, tenant ?? "")', async () => {
    await store.save(aTask('t-1'), alice);
    await store.save(aTask('t-2'), ctxOf('alice', 'acme'));
    expect(await store.load('t-1', ctxOf('bob'))).toBeUndefined();
    expect(await store.load('t-1', new ServerCallContext())).toBeUndefined();
    expect(await store.load('t-1', ctxOf('alice', 'acme'))).toBeUndefined();
    expect(ids(await store.list(listReq(), ctxOf('bob')))).toEqual([]);
    expect(ids(await store.list(listReq(), alice))).toEqual(['t-1']);
    expect(ids(await store.list(listReq(), ctxOf('alice', 'acme')))).toEqual(['t-2']);
  });

  it('after close, refuses saves and commits with TaskStoreClosedError, logged once at WARN', async () => {
    const failures = new TaskWriteFailures();
    store = new TypeOrmTaskStore(dataSource, {}, undefined, failures);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      await dataSource.destroy();
      await expect(store.save(aTask('t-1'), alice)).rejects.toBeInstanceOf(TaskStoreClosedError);
      await expect(store.commitRows([store.rowOf(aTask('t-2'), alice)])).rejects.toThrow(
        'Task store is closed (the server is shutting down): 1 task save(s) not stored',
      );
      await expect(store.save(aTask('t-3'), alice)).rejects.toBeInstanceOf(TaskStoreClosedError);
      const closedLines = warn.mock.calls.filter(([m]) => String(m).includes('store is closed'));
      expect(closedLines).toHaveLength(1);
      expect(String(closedLines[0][0])).toContain('(task "t-1"); later ones are not logged.');
      expect(error).not.toHaveBeenCalled();
      expect(failures.size).toBe(0);
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it('upserts: a second save replaces the task', async () => {
    await store.save(aTask('t-1'), alice);
    await store.save(
      aTask('t-1', {
        state: TaskState.TASK_STATE_COMPLETED,
        seconds: 5,
        contextId: 'c'.repeat(100),
      }),
      alice,
    );
    expect((await store.load('t-1', alice))!.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const listed = await store.list(listReq({ status: TaskState.TASK_STATE_COMPLETED }), alice);
    expect(listed.totalSize).toBe(1);
    expect(listed.tasks[0].contextId).toHaveLength(100);
    expect(
      (await store.list(listReq({ status: TaskState.TASK_STATE_WORKING }), alice)).totalSize,
    ).toBe(0);
  });

  describe('list', () => {
    beforeEach(async () => {
      for (const [id, spec] of LIST_SPECS) await store.save(aTask(id, spec), alice);
    });

    it('orders by status timestamp desc then id desc, filters, and strips artifacts', async () => {
      const all = await store.list(listReq(), alice);
      expect(ids(all)).toEqual(['i', 'e', 'f', 'g', 'c', 'b', 'j', 'd', 'a', 'h']);
      expect(all).toMatchObject({ totalSize: 10, pageSize: 50, nextPageToken: '' });
      expect(all.tasks.every((t) => t.artifacts.length === 0 && t.history.length === 1)).toBe(true);
      expect(ids(await store.list(listReq({ contextId: 'ctx-2' }), alice))).toEqual(['e', 'b']);
      expect(
        ids(await store.list(listReq({ status: TaskState.TASK_STATE_COMPLETED }), alice)),
      ).toEqual(['f', 'd']);
      expect(ids(await store.list(listReq({ statusTimestampAfter: at(4) }), alice))).toEqual([
        'i',
        'e',
      ]);
      const full = await store.list(
        listReq({ includeArtifacts: true, historyLength: 0, contextId: 'ctx-2' }),
        alice,
      );
      expect(full.tasks.map((t) => [t.artifacts.length, t.history.length])).toEqual([
        [1, 0],
        [1, 0],
      ]);
    });

    it('pages with stable keyset cursors and a constant totalSize', async () => {
      const first = await store.list(listReq({ pageSize: 4 }), alice);
      const second = await store.list(
        listReq({ pageSize: 4, pageToken: first.nextPageToken }),
        alice,
      );
      await store.save(aTask('z', { seconds: 9 }), alice); // newer rows do not shift later pages
      const third = await store.list(
        listReq({ pageSize: 4, pageToken: second.nextPageToken }),
        alice,
      );
      expect([ids(first), ids(second), ids(third)]).toEqual([
        ['i', 'e', 'f', 'g'],
        ['c', 'b', 'j', 'd'],
        ['a', 'h'],
      ]);
      expect([first.totalSize, second.totalSize, third.totalSize]).toEqual([10, 10, 11]);
      expect(second.nextPageToken).toBe(encodePageToken(Date.parse(at(2)), 'd'));
      expect(third.nextPageToken).toBe('');
      const preEpoch = { timestampMs: -86_400_000, id: 'x|y' }; // ids may hold the separator
      expect(decodePageToken(encodePageToken(preEpoch.timestampMs, preEpoch.id))).toEqual(preEpoch);
      expect(third.pageSize).toBe(4);
      const again = await store.list(
        listReq({ pageSize: 4, pageToken: first.nextPageToken }),
        alice,
      );
      expect([ids(again), again.nextPageToken]).toEqual([ids(second), second.nextPageToken]);
    });

    it.each([
      '%%%',
      Buffer.from('no-separator').toString('base64url'),
      Buffer.from('x1|a').toString('base64url'),
      'MTIz',
    ])('rejects the malformed pageToken %p with RequestMalformedError', async (pageToken) => {
      await expect(store.list(listReq({ pageToken }), alice)).rejects.toBeInstanceOf(
        RequestMalformedError,
      );
    });

    it('makes a bad pageToken an invalid-params error through the SDK handler, never a 500', async () => {
      const executor = { execute: jest.fn(), cancelTask: jest.fn() };
      const handler = new DefaultRequestHandler({} as AgentCard, store, executor);
      const request = listReq({ pageToken: 'not a cursor' });
      const error = await handler.listTasks(request, alice).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestMalformedError);
      expect(toJsonRpcError(error as RequestMalformedError).code).toBe(-32602);
      const trimmed = await handler.listTasks(listReq({ historyLength: 0 }), alice);
      expect(trimmed.tasks.every((t) => t.history.length === 0)).toBe(true);
    });

    it('returns what the SDK InMemoryTaskStore returns for the same saves (tokens aside)', async () => {
      const memory = new InMemoryTaskStore();
      for (const id of 'abcdefghij') await memory.save((await store.load(id, alice))!, alice);
      const requests = [
        listReq({ pageSize: 3 }),
        listReq({ contextId: 'ctx-1', pageSize: 2 }),
        listReq({ status: TaskState.TASK_STATE_COMPLETED, includeArtifacts: true }),
        listReq({ statusTimestampAfter: at(2) }),
      ];
      for (const request of requests) {
        let [ours, theirs] = [await store.list(request, alice), await memory.list(request, alice)];
        for (;;) {
          expect(ours.tasks.map((t) => Task.toJSON(t))).toEqual(
            theirs.tasks.map((t) => Task.toJSON(t)),
          );
          expect([ours.totalSize, ours.pageSize, !ours.nextPageToken]).toEqual([
            theirs.totalSize,
            theirs.pageSize,
            !theirs.nextPageToken,
          ]);
          if (!ours.nextPageToken) break;
          [ours, theirs] = [
            await store.list({ ...request, pageToken: ours.nextPageToken }, alice),
            await memory.list({ ...request, pageToken: theirs.nextPageToken }, alice),
          ];
        }
      }
    });
  });

  it('survives closing and reopening the file; migrations run once', async () => {
    await store.save(aTask('t-1', { state: TaskState.TASK_STATE_COMPLETED }), alice);
    await dataSource.destroy();
    dataSource = await open();
    expect((await new TypeOrmTaskStore(dataSource).load('t-1', alice))!.status!.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    const migrations = await dataSource.query('SELECT name FROM a2a_tasks_migrations');
    if (backend === 'postgres') {
      expect(migrations).toEqual([{ name: 'CreateA2aTasksPostgres1765000000001' }]);
      return;
    }
    expect(migrations).toEqual([
      { name: 'CreateA2aTasks1733000000000' },
      { name: 'AddTaskLeases1765000000000' },
      { name: 'AddTaskRetentionIndex1765000000002' },
    ]);
    expect(await dataSource.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
  });

  (backend === 'postgres' ? it : it.skip)(
    'on PostgreSQL has every column the entity names, epoch ms as bigint',
    async () => {
      const columns: { column_name: string; data_type: string }[] = await dataSource.query(
        `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'a2a_tasks'`,
      );
      const types = Object.fromEntries(columns.map((c) => [c.column_name, c.data_type]));
      const named = dataSource.getMetadata('TaskEntity').columns.map((c) => c.databaseName);
      expect(Object.keys(types).sort()).toEqual([...named].sort());
      for (const name of named.filter((n) => n.endsWith('_ms')))
        expect([name, types[name]]).toEqual([name, 'bigint']);
      const task = aTask('t-big', { seconds: 4_000_000_000 }); // past 2^31 ms since 2025: needs bigint
      await store.save(task, alice);
      expect((await store.list(listReq(), alice)).tasks[0].status!.timestamp).toBe(
        at(4_000_000_000),
      );
    },
  );

  sqliteOnly('has an entity that matches the migration (no pending schema change)', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  sqliteOnly(
    'answers every list shape over 100,000 rows with an index range, never a table scan',
    async () => {
      const db = (dataSource.driver as unknown as { databaseConnection: Database.Database })
        .databaseConnection;
      const upsert = db.prepare(UPSERT_TASK_SQL);
      const states = [
        TaskState.TASK_STATE_WORKING,
        TaskState.TASK_STATE_COMPLETED,
        TaskState.TASK_STATE_FAILED,
      ];
      db.transaction(() => {
        for (let i = 0; i < 100_000; i++) {
          const task = {
            ...aTask(`t-${i}`, { contextId: `ctx-${i % 50}`, state: states[i % 3], seconds: i }),
            history: [],
            artifacts: [],
          };
          upsert.run(
            ...taskRowValues(
              toTaskEntity({ tenant: '', owner: i % 10 ? 'alice' : 'bob' }, task, T0),
            ),
          );
        }
      })();
      const token = encodePageToken(T0 + 50_000_000, 't-50000');
      const shapes = [
        {},
        { contextId: 'ctx-7' },
        { status: TaskState.TASK_STATE_COMPLETED },
        { statusTimestampAfter: at(10) },
        {
          contextId: 'ctx-7',
          status: TaskState.TASK_STATE_FAILED,
          statusTimestampAfter: at(10),
          includeArtifacts: true,
        },
      ];
      for (const shape of shapes) {
        for (const pageToken of ['', token]) {
          const { count, page } = listQueries(
            { tenant: '', owner: 'alice' },
            listReq({ ...shape, pageToken }),
          );
          for (const statement of [count, page]) {
            const plan = (await dataSource.query(
              `EXPLAIN QUERY PLAN ${statement.sql}`,
              statement.params,
            )) as { detail: string }[];
            const details = plan.map((row) => row.detail).join('\n');
            expect(details).toMatch(/^SEARCH a2a_tasks USING (COVERING )?INDEX IDX_a2a_tasks_/);
            expect(details).not.toMatch(/SCAN a2a_tasks|TEMP B-TREE/);
          }
        }
      }
      expect((await store.list(listReq({ contextId: 'ctx-7' }), alice)).totalSize).toBe(2000);
    },
    120_000,
  );
});

describe(TasksModule.name, () => {
  @Injectable()
  class FakeConfig {
    readonly taskStorePath = null;
  }
  @Module({ providers: [FakeConfig], exports: [FakeConfig] })
  class FakeConfigModule {}

  it('wires TASK_STORE on a migrated file data source (forRoot)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tasks-module-'));
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [TasksModule.forRoot({ path: join(dir, 'db', 't.sqlite3') })],
      }).compile();
      const taskStore = moduleRef.get<TypeOrmTaskStore>(TASK_STORE);
      await taskStore.save(aTask('t-1'), alice);
      expect((await taskStore.load('t-1', alice))!.id).toBe('t-1');
      await moduleRef.close(); // closes the data source (found by name at shutdown)
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('caps the memory-only store by tasks and by kept bytes; the durable store by neither on save', () => {
    expect(tasksModuleOptionsFrom({ taskStorePath: null })).toMatchObject({
      maxTasks: MEMORY_MODE_MAX_TASKS,
      maxBytes: MEMORY_MODE_MAX_BYTES,
    });
    expect(tasksModuleOptionsFrom({ taskStorePath: 'data/tasks.sqlite3' })).toMatchObject({
      maxTasks: null,
      maxBytes: null,
    });
  });

  it('builds the memory-only store from injected config (forRootAsync)', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        TasksModule.forRootAsync({
          imports: [FakeConfigModule],
          inject: [FakeConfig],
          useFactory: tasksModuleOptionsFrom,
        }),
      ],
    }).compile();
    const taskStore = moduleRef.get<MemoryTaskStore>(TASK_STORE);
    expect(taskStore).toBeInstanceOf(MemoryTaskStore);
    await taskStore.save(aTask('t-1'), alice);
    expect(ids(await taskStore.list(listReq(), alice))).toEqual(['t-1']);
    await moduleRef.close();
  });
});
