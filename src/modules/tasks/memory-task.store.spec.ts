import { Task, TaskState } from '@a2a-js/sdk';
import type { ListTasksRequest } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { DataSource } from 'typeorm';
import { tasksDataSourceOptions } from './tasks-datasource';
import { MemoryTaskStore } from './memory-task.store';
import { TypeOrmTaskStore } from './typeorm-task.store';
import {
  aTask,
  alice,
  at,
  ctxOf,
  ids,
  LIST_SPECS,
  listReq,
  part,
} from '../../../test/fixtures/task-store';

describe(MemoryTaskStore.name, () => {
  let dataSource: DataSource;
  let sql: TypeOrmTaskStore;
  let memory: MemoryTaskStore;

  beforeEach(async () => {
    dataSource = await new DataSource(tasksDataSourceOptions(null)).initialize();
    sql = new TypeOrmTaskStore(dataSource, { maxListReplyBytes: 3000 });
    memory = new MemoryTaskStore({ maxListReplyBytes: 3000 });
    // One task with a long non-ASCII answer: kept off the V8 heap as UTF-8 by the memory store.
    const long = aTask('k', { seconds: 4 });
    long.artifacts[0].parts = [part({ $case: 'text', value: 'shortlist — ✓ '.repeat(200) })];
    for (const store of [sql, memory]) {
      for (const [id, spec] of LIST_SPECS) await store.save(aTask(id, spec), alice);
      await store.save(long, alice);
    }
  });
  afterEach(async () => {
    await dataSource.destroy();
  });

  it('lists, filters, pages (same cursors) and caps page bytes exactly as the SQL store', async () => {
    const requests: Partial<ListTasksRequest>[] = [
      {},
      { includeArtifacts: true },
      { pageSize: 3 },
      { pageSize: 0 },
      { contextId: 'ctx-2' },
      { status: TaskState.TASK_STATE_COMPLETED, includeArtifacts: true },
      { statusTimestampAfter: at(2), historyLength: 0 },
      { contextId: 'ctx-1', pageSize: 2, includeArtifacts: true },
      { contextId: 'none' },
    ];
    for (const over of requests) {
      let request = listReq(over);
      for (let page = 0; page < 20; page++) {
        const [ours, theirs] = [await memory.list(request, alice), await sql.list(request, alice)];
        expect({ ...ours, tasks: ours.tasks.map((t) => Task.toJSON(t)) }).toEqual({
          ...theirs,
          tasks: theirs.tasks.map((t) => Task.toJSON(t)),
        });
        if (!ours.nextPageToken) break;
        request = listReq({ ...over, pageToken: ours.nextPageToken });
      }
    }
    // The byte cap cut the unfiltered list short (so the comparison above covered it).
    expect((await memory.list(listReq({ includeArtifacts: true }), alice)).nextPageToken).not.toBe(
      '',
    );
  });

  it('keeps each scope apart, returns fresh objects and replaces on a second save', async () => {
    const bob = ctxOf('bob');
    const tenantAlice = ctxOf('alice', 'acme');
    expect(await memory.load('a', bob)).toBeUndefined();
    expect(await memory.load('a', tenantAlice)).toBeUndefined();
    expect((await memory.list(listReq(), bob)).totalSize).toBe(0);
    expect(Task.toJSON((await memory.load('k', alice))!)).toEqual(
      Task.toJSON((await sql.load('k', alice))!),
    );
    const loaded = (await memory.load('a', alice))!;
    loaded.history.length = 0;
    expect((await memory.load('a', alice))!.history).toHaveLength(1);
    await memory.save(aTask('a', { state: TaskState.TASK_STATE_COMPLETED, seconds: 9 }), alice);
    expect((await memory.load('a', alice))!.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(ids(await memory.list(listReq({ pageSize: 1 }), alice))).toEqual(['a']);
  });

  it('a long finished task (non-Latin-1 answer, long history) reads back as the SQL store reads it', async () => {
    const done = aTask('k', { state: TaskState.TASK_STATE_COMPLETED, seconds: 30 });
    done.artifacts[0].parts = [part({ $case: 'text', value: 'réponse — ✓ 🦀 '.repeat(300) })];
    done.history[0].parts = [part({ $case: 'text', value: 'question '.repeat(200) })];
    for (const store of [sql, memory]) await store.save(done, alice);
    const json = async (store: MemoryTaskStore | TypeOrmTaskStore) =>
      Task.toJSON((await store.load('k', alice))!);
    expect(await json(memory)).toEqual(await json(sql));
    expect(await json(memory)).toEqual(Task.toJSON(done));
    const listed = async (store: MemoryTaskStore | TypeOrmTaskStore) =>
      (await store.list(listReq({ includeArtifacts: true, historyLength: 10 }), alice)).tasks.map(
        (t) => Task.toJSON(t),
      );
    expect(await listed(memory)).toEqual(await listed(sql));
  });

  it.each(['%%%', Buffer.from('x1|a').toString('base64url')])(
    'rejects the malformed pageToken %p with RequestMalformedError',
    async (pageToken) => {
      await expect(memory.list(listReq({ pageToken }), alice)).rejects.toBeInstanceOf(
        RequestMalformedError,
      );
    },
  );

  it('prunes down to maxTasks once 10% over, oldest terminal tasks first', async () => {
    const store = new MemoryTaskStore({ maxTasks: 10 });
    for (let i = 0; i < 6; i++) await store.save(aTask(`w-${i}`, { seconds: i }), alice);
    for (let i = 0; i < 5; i++)
      await store.save(
        aTask(`c-${i}`, { seconds: 10 + i, state: TaskState.TASK_STATE_COMPLETED }),
        ctxOf(`user-${i}`),
      );
    const total = async () => {
      let n = (await store.list(listReq(), alice)).totalSize;
      for (let i = 0; i < 5; i++) n += (await store.list(listReq(), ctxOf(`user-${i}`))).totalSize;
      return n;
    };
    expect(await total()).toBe(11);
    await store.save(aTask('c-5', { seconds: 20, state: TaskState.TASK_STATE_CANCELED }), alice);
    expect(await total()).toBe(10);
    expect(await store.load('c-0', ctxOf('user-0'))).toBeUndefined();
    expect(await store.load('c-1', ctxOf('user-1'))).toBeUndefined();
    expect(
      ids(await store.list(listReq(), alice)).filter((id) => id.startsWith('w-')),
    ).toHaveLength(6);
    expect(() => new MemoryTaskStore({ maxTasks: 0 })).toThrow('maxTasks');
  });

  it('prunes down to maxBytes of kept JSON once 10% over, finished tasks first, never the task just saved', async () => {
    const store = new MemoryTaskStore({ maxBytes: 25_000 }); // each row below keeps ~5.2 KB
    const big = (id: string, seconds: number, state?: TaskState) => {
      const t = aTask(id, { seconds, ...(state === undefined ? {} : { state }) });
      t.artifacts[0].parts = [part({ $case: 'text', value: `${id} `.padEnd(5_000, 'x') })];
      return t;
    };
    const listed = async () => ids(await store.list(listReq(), alice)).sort();
    await store.save(big('w-0', 0), alice); // unfinished, saved first
    for (let i = 1; i <= 4; i++)
      await store.save(big(`c-${i}`, i, TaskState.TASK_STATE_COMPLETED), alice);
    // five rows: over 25,000 but within 27,500 (10% over), nothing dropped yet
    expect(await listed()).toEqual(['c-1', 'c-2', 'c-3', 'c-4', 'w-0']);
    await store.save(big('c-5', 5, TaskState.TASK_STATE_COMPLETED), alice);
    // down to 25,000: the oldest finished rows go first; the older unfinished one stays
    expect(await listed()).toEqual(['c-3', 'c-4', 'c-5', 'w-0']);
    // a task larger than the whole budget is kept, alone: every older row goes, unfinished too
    const huge = big('huge', 9, TaskState.TASK_STATE_COMPLETED);
    huge.artifacts[0].parts = [part({ $case: 'text', value: 'y'.repeat(30_000) })];
    await store.save(huge, alice);
    expect(await listed()).toEqual(['huge']);
    expect((await store.load('huge', alice))?.artifacts[0].parts).toHaveLength(1);
    // a smaller save of the same task frees what the larger one held
    await store.save(big('huge', 9, TaskState.TASK_STATE_COMPLETED), alice);
    await store.save(big('n-1', 10, TaskState.TASK_STATE_COMPLETED), alice);
    await store.save(big('n-2', 11, TaskState.TASK_STATE_COMPLETED), alice);
    expect(await listed()).toEqual(['huge', 'n-1', 'n-2']);
    expect(() => new MemoryTaskStore({ maxBytes: 0 })).toThrow('maxBytes');
  });

  it('prunes by last save, as the durable retention does: a saved-again task is kept', async () => {
    const store = new MemoryTaskStore({ maxTasks: 2 });
    const done = (id: string, seconds: number) =>
      aTask(id, { seconds, state: TaskState.TASK_STATE_COMPLETED });
    await store.save(done('a', 1), alice);
    await store.save(done('b', 2), alice);
    await store.save(done('a', 1), alice);
    await store.save(aTask('w', { seconds: 0 }), alice);
    expect(ids(await store.list(listReq(), alice))).toEqual(['a', 'w']);
  });

  it('keeps a save at once; the saves of one event-loop turn resolve together, after it', async () => {
    const store = new MemoryTaskStore();
    const order: string[] = [];
    setImmediate(() => order.push('check phase'));
    const first = store.save(aTask('t-1', { seconds: 1 }), alice);
    const second = store.save(aTask('t-2', { seconds: 2 }), alice);
    expect(second).toBe(first);
    void first.then(() => order.push('saved'));
    expect((await store.load('t-2', alice))?.id).toBe('t-2');
    await Promise.resolve();
    expect(order).toEqual([]);
    await first;
    expect(order).toEqual(['check phase', 'saved']);
    const later = store.save(aTask('t-3', { seconds: 3 }), alice);
    expect(later).not.toBe(first);
    await later;
    const noId = aTask('t-4', { seconds: 4 });
    (noId as { id: unknown }).id = undefined;
    await expect(store.save(noId, alice)).rejects.toThrow('task has no id');
    expect(ids(await store.list(listReq(), alice))).toEqual(['t-3', 't-2', 't-1']);
  });
});
