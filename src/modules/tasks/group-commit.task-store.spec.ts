import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { DataSource } from 'typeorm';
import { GroupCommitTaskStore } from './group-commit.task-store';
import { tasksDataSourceOptions } from './tasks-datasource';
import { TypeOrmTaskStore } from './typeorm-task.store';
import { ProcessInstance } from '../../common/runtime/process-instance';
import { TaskWriteFailures } from './task-write-failures';

const alice = new ServerCallContext({ user: { isAuthenticated: true, userName: 'alice' } });
const aTask = (id: string, state = TaskState.TASK_STATE_COMPLETED): Task => ({
  id,
  contextId: 'ctx-1',
  metadata: undefined,
  status: { state, message: undefined, timestamp: '2025-01-01T00:00:00.000Z' },
  artifacts: [],
  history: [],
});

describe(GroupCommitTaskStore.name, () => {
  let dataSource: DataSource;
  let inner: TypeOrmTaskStore;
  let store: GroupCommitTaskStore;
  const instance = new ProcessInstance();
  let failures: TaskWriteFailures;

  beforeEach(async () => {
    dataSource = await new DataSource(tasksDataSourceOptions(null)).initialize();
    failures = new TaskWriteFailures();
    inner = new TypeOrmTaskStore(dataSource, {}, instance, failures);
    store = new GroupCommitTaskStore(inner);
  });
  afterEach(async () => {
    await dataSource.destroy();
  });

  it('commits the saves of one event-loop turn in one transaction, each resolved only after it', async () => {
    const commits = jest.spyOn(inner, 'commitRows');
    const saves = ['t-1', 't-2', 't-3'].map((id) => store.save(aTask(id), alice));
    expect(await inner.load('t-1', alice)).toBeUndefined();
    await Promise.all(saves);
    expect(commits).toHaveBeenCalledTimes(1);
    expect(commits.mock.calls[0][0]).toHaveLength(3);
    expect((await inner.load('t-3', alice))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('captures the row at save(): a later change of the task object is not written', async () => {
    const task = aTask('t-1', TaskState.TASK_STATE_WORKING);
    const saved = store.save(task, alice);
    task.status = {
      state: TaskState.TASK_STATE_FAILED,
      message: undefined,
      timestamp: task.status!.timestamp,
    };
    await saved;
    expect((await inner.load('t-1', alice))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
  });

  it('load and list wait for the saves queued before them', async () => {
    void store.save(aTask('t-1'), alice);
    expect((await store.load('t-1', alice))?.id).toBe('t-1');
    void store.save(aTask('t-2'), alice);
    expect(
      (await store.list({ tenant: '', pageSize: 10 } as never, alice)).tasks
        .map((t) => t.id)
        .sort(),
    ).toEqual(['t-1', 't-2']);
  });

  it('a failed commit rejects every save of its batch; the next batch commits', async () => {
    jest.spyOn(inner, 'commitRows').mockRejectedValueOnce(new Error('disk I/O error'));
    const saves = ['t-1', 't-2'].map((id) => store.save(aTask(id), alice));
    await expect(saves[0]).rejects.toThrow('disk I/O error');
    await expect(saves[1]).rejects.toThrow('disk I/O error');
    expect(await store.load('t-1', alice)).toBeUndefined();
    await store.save(aTask('t-3'), alice);
    expect((await store.load('t-3', alice))?.id).toBe('t-3');
  });

  it('writes the ownership lease of a SUBMITTED/WORKING task as save() does, and none once it ends', async () => {
    const leaseOf = async (id: string) =>
      (
        (await dataSource.query(
          'SELECT "lease_owner" AS "owner", "lease_renewed_at_ms" AS "at" FROM "a2a_tasks" WHERE "id" = ?',
          [id],
        )) as { owner: string | null; at: number | null }[]
      )[0];
    await store.save(aTask('t-1', TaskState.TASK_STATE_WORKING), alice);
    expect(await leaseOf('t-1')).toEqual({ owner: instance.id, at: expect.any(Number) });
    await store.save(aTask('t-1', TaskState.TASK_STATE_COMPLETED), alice);
    expect(await leaseOf('t-1')).toEqual({ owner: null, at: null });
  });

  it('records a failed commit for every task of the batch (ended FAILED once writes work again)', async () => {
    const db = (dataSource.driver as unknown as { databaseConnection: { transaction: unknown } })
      .databaseConnection;
    const original = db.transaction;
    db.transaction = () => () => {
      throw new Error('SQLITE_READONLY');
    };
    const saves = ['t-1', 't-2'].map((id) =>
      store.save(aTask(id, TaskState.TASK_STATE_WORKING), alice),
    );
    await expect(Promise.all(saves)).rejects.toThrow('SQLITE_READONLY');
    db.transaction = original;
    expect(
      failures
        .pending()
        .map((f) => f.task.id)
        .sort(),
    ).toEqual(['t-1', 't-2']);
  });

  it('rejects a task without an id at once', async () => {
    await expect(store.save({ ...aTask('x'), id: undefined as never }, alice)).rejects.toThrow(
      'no id',
    );
  });
});
