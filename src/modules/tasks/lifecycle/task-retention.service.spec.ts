import { TaskState } from '@a2a-js/sdk';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/runtime/clock';
import { TERMINAL_STATES } from '../task.entity';
import { tasksDataSourceOptions } from '../tasks-datasource';
import { TypeOrmTaskStore } from '../typeorm-task.store';
import { pruneSql, TaskRetention } from './task-retention.service';
import { aTask, alice } from '../../../../test/fixtures/task-store';

const DAY_MS = 86_400_000;
const NOW_MS = Date.parse('2026-12-07T00:00:00Z');

describe(TaskRetention.name, () => {
  let dataSource: DataSource;
  let store: TypeOrmTaskStore;
  const retention = (maxTasks: number, taskTtlDays = 0) =>
    new TaskRetention(
      dataSource,
      { maxTasks, taskTtlDays } as never,
      {
        now: () => new Date(NOW_MS),
      } as Clock,
    );
  /** Saves a task, then sets its last save to `ageDays` before NOW_MS. */
  const saved = async (id: string, state: TaskState, ageDays: number) => {
    await store.save(aTask(id, { state }), alice);
    await dataSource.query('UPDATE "a2a_tasks" SET "updated_at_ms" = ? WHERE "id" = ?', [
      NOW_MS - ageDays * DAY_MS,
      id,
    ]);
  };
  const ids = async () =>
    (await dataSource.query('SELECT "id" FROM "a2a_tasks" ORDER BY "id"')).map(
      (r: { id: string }) => r.id,
    );

  beforeEach(async () => {
    dataSource = await new DataSource(tasksDataSourceOptions(null)).initialize();
    store = new TypeOrmTaskStore(dataSource);
  });
  afterEach(async () => {
    await dataSource.destroy();
  });

  it('deletes the oldest finished tasks by last save down to the cap, never an unfinished one', async () => {
    await saved('a-working-oldest', TaskState.TASK_STATE_WORKING, 9);
    await saved('b-done-8', TaskState.TASK_STATE_COMPLETED, 8);
    await saved('c-failed-7', TaskState.TASK_STATE_FAILED, 7);
    await saved('d-input-6', TaskState.TASK_STATE_INPUT_REQUIRED, 6);
    await saved('e-canceled-5', TaskState.TASK_STATE_CANCELED, 5);
    await saved('f-done-1', TaskState.TASK_STATE_COMPLETED, 1);

    expect(await retention(3).prune()).toBe(3);

    expect(await ids()).toEqual(['a-working-oldest', 'd-input-6', 'f-done-1']);
  });

  it('deletes finished tasks past the TTL, then none while under the cap', async () => {
    await saved('old-done', TaskState.TASK_STATE_COMPLETED, 31);
    await saved('old-working', TaskState.TASK_STATE_WORKING, 31);
    await saved('new-done', TaskState.TASK_STATE_COMPLETED, 29);

    expect(await retention(100, 30).prune()).toBe(1);

    expect(await ids()).toEqual(['new-done', 'old-working']);
  });

  it.each([false, true])(
    'reads the oldest rows through IDX_a2a_tasks_updated, not the whole table (cutoff %s)',
    async (beforeCutoff) => {
      const params = beforeCutoff ? [...TERMINAL_STATES, NOW_MS, 1000] : [...TERMINAL_STATES, 1000];
      const plan: { detail: string }[] = await dataSource.query(
        `EXPLAIN QUERY PLAN ${pruneSql(beforeCutoff)}`,
        params,
      );
      const details = plan.map((step) => step.detail);

      expect(details.some((d) => d.includes('USING INDEX IDX_a2a_tasks_updated'))).toBe(true);
      expect(details.filter((d) => /^SCAN a2a_tasks$/.test(d))).toEqual([]);
      expect(details.some((d) => d.includes('TEMP B-TREE'))).toBe(false);
    },
  );
});
