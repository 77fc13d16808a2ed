import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { Clock } from '../../../common/runtime/clock';
import type { ConfigType } from '@nestjs/config';
import { storesConfig } from '../../../config/namespaces';
import { TERMINAL_STATES } from '../task.entity';
import { TASKS_CONNECTION } from '../tasks.constants';
import { sqlFor } from '../../../common/database/sql-dialect';

/**
 * Rows deleted per statement; requests run between batches. A batch holds the event loop while
 * SQLite deletes: 1,000 rows of the shortlist's 6 KB answer took 18 ms, 200 about 5 ms.
 */
export const PRUNE_BATCH_ROWS = 200;

const DAY_MS = 86_400_000;
const TERMINAL = `"status_state" IN (${TERMINAL_STATES.map(() => '?').join(', ')})`;
const COUNT_SQL = 'SELECT COUNT(*) AS "total" FROM "a2a_tasks"';
/**
 * The retention delete: the oldest finished rows first (by last save), optionally only those
 * saved before a cutoff. Parameters: the terminal states, then the cutoff (epoch ms) when
 * `beforeCutoff`, then the row limit. Served by the index `IDX_a2a_tasks_updated`
 * ("updated_at_ms", "id") on both dialects, so a batch never reads the whole table.
 */
export const pruneSql = (beforeCutoff: boolean): string =>
  'DELETE FROM "a2a_tasks" WHERE ("tenant", "owner", "id") IN (SELECT "tenant", "owner", "id" ' +
  `FROM "a2a_tasks" WHERE ${TERMINAL}${beforeCutoff ? ' AND "updated_at_ms" < ?' : ''} ` +
  'ORDER BY "updated_at_ms", "id" LIMIT ?)';

/**
 * Background retention of the durable task store: deletes finished tasks (completed, failed,
 * canceled, rejected) not saved for `taskTtlDays`, then the oldest finished tasks while more
 * than `maxTasks` rows remain. Never deletes SUBMITTED, WORKING, INPUT_REQUIRED or
 * AUTH_REQUIRED tasks, so the cap can be exceeded by unfinished work alone.
 */
@Injectable()
export class TaskRetention {
  private readonly logger = new Logger(TaskRetention.name);

  constructor(
    @InjectDataSource(TASKS_CONNECTION) private readonly db: DataSource,
    @Inject(storesConfig.KEY) private readonly config: ConfigType<typeof storesConfig>,
    private readonly clock: Clock,
  ) {}

  /**
   * One pruning pass, in batches of {@link PRUNE_BATCH_ROWS}.
   * @returns Rows deleted. @throws {Error} The store did not answer.
   */
  async prune(): Promise<number> {
    const { taskTtlDays, maxTasks } = this.config;
    let deleted = 0;
    if (taskTtlDays > 0) {
      const cutoffMs = this.clock.now().getTime() - taskTtlDays * DAY_MS;
      deleted += await this.deleteBatches(
        Infinity,
        (limit) => [...TERMINAL_STATES, cutoffMs, limit],
        true,
      );
    }
    const over = (await this.count()) - maxTasks;
    if (over > 0)
      deleted += await this.deleteBatches(over, (limit) => [...TERMINAL_STATES, limit], false);
    if (deleted > 0)
      this.logger.log(`Pruned ${deleted} finished task(s) (ttl ${taskTtlDays} d, cap ${maxTasks})`);
    return deleted;
  }

  private async deleteBatches(
    upTo: number,
    params: (limit: number) => unknown[],
    beforeCutoff: boolean,
  ): Promise<number> {
    let deleted = 0;
    while (deleted < upTo) {
      const limit = Math.min(PRUNE_BATCH_ROWS, upTo - deleted);
      const runner = this.db.createQueryRunner();
      let removed: number;
      try {
        removed =
          (await runner.query(sqlFor(this.db, pruneSql(beforeCutoff)), params(limit), true))
            .affected ?? 0;
      } finally {
        await runner.release();
      }
      deleted += removed;
      if (removed < limit) break;
      await yieldToRequests();
    }
    return deleted;
  }

  private async count(): Promise<number> {
    const [{ total }]: { total: number }[] = await this.db.query(COUNT_SQL);
    return Number(total);
  }
}
