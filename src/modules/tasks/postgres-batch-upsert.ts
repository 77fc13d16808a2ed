import type { DataSource } from 'typeorm';
import { scopedTaskKey, UPSERT_TASK_SQL } from './task.entity';
import type { TaskScope } from './task.entity';

/** The rows of one group commit, as {@link commitPostgresBatch} reads them. */
export interface BatchRow {
  scope: TaskScope;
  /** {@link taskRowValues} of the save: tenant, owner and id first. */
  values: unknown[];
}

/**
 * Notifications sent in the transaction of a batch (PostgreSQL `NOTIFY`, delivered at commit:
 * a receiver that reads the store sees at least what was announced, and a rolled-back batch
 * announces nothing).
 */
export interface BatchNotifications {
  /** The `LISTEN` channel. */
  channel: string;
  /**
   * The payloads announcing the batch's tasks (each under PostgreSQL's 8000-byte payload limit),
   * given each task once, in the order of its last save in the batch.
   */
  payloadsOf(keys: { tenant: string; owner: string; taskId: string }[]): string[];
}

/**
 * Rows per upsert statement: 15 bind parameters each, under PostgreSQL's 65,535 parameters of
 * one statement. A batch with more rows is several statements in one transaction.
 */
export const MAX_ROWS_PER_STATEMENT = 1_000;

/** Columns of {@link UPSERT_TASK_SQL}, the `ON CONFLICT` clause after them. */
const [INSERT_HEAD, CONFLICT_TAIL] = (() => {
  const values = UPSERT_TASK_SQL.indexOf(' VALUES (');
  const onConflict = UPSERT_TASK_SQL.indexOf(' ON CONFLICT');
  return [UPSERT_TASK_SQL.slice(0, values), UPSERT_TASK_SQL.slice(onConflict)];
})();
const COLUMNS = 15;
const statements = new Map<string, string>();

/**
 * The last save of each task in the batch, in the order of those last saves: a PostgreSQL
 * `INSERT … ON CONFLICT DO UPDATE` may not touch one row twice, and the last save is the task's
 * state at commit.
 */
export function lastPerTask<R extends BatchRow>(rows: readonly R[]): R[] {
  const last = new Map<string, R>();
  for (const row of rows) {
    const key = scopedTaskKey(row.scope, String(row.values[2]));
    last.delete(key);
    last.set(key, row);
  }
  return [...last.values()];
}

/**
 * The multi-row upsert of `rowCount` rows (`$1 … $15n`), with `SELECT pg_notify($m, $m+1)` … for
 * `notifyCount` payloads in the same statement (a data-modifying `WITH`: one round trip, one
 * implicit transaction). Texts are cached by shape.
 * @see PostgreSQL documentation, INSERT (ON CONFLICT), WITH (data-modifying statements), NOTIFY.
 */
export function batchUpsertSql(rowCount: number, notifyCount: number): string {
  const shape = `${rowCount}/${notifyCount}`;
  let sql = statements.get(shape);
  if (sql !== undefined) return sql;
  let n = 0;
  const tuples: string[] = [];
  for (let r = 0; r < rowCount; r++) {
    const slots = Array.from({ length: COLUMNS }, () => `$${++n}`);
    tuples.push(`(${slots.join(', ')})`);
  }
  const upsert = `${INSERT_HEAD} VALUES ${tuples.join(', ')}${CONFLICT_TAIL}`;
  if (notifyCount === 0) sql = upsert;
  else {
    const channel = `$${++n}`;
    const notifies = Array.from({ length: notifyCount }, () => `pg_notify(${channel}, $${++n})`);
    sql = `WITH "upserted" AS (${upsert}) SELECT ${notifies.join(', ')}`;
  }
  if (statements.size < 256) statements.set(shape, sql);
  return sql;
}

/**
 * Writes one group commit on PostgreSQL: the last save of each task (see {@link lastPerTask}) in
 * one multi-row upsert, and the batch's notifications in that same statement; one round trip when
 * the batch has at most {@link MAX_ROWS_PER_STATEMENT} tasks, else one transaction of several
 * statements (the notifications in the last).
 * @throws {Error} PostgreSQL refused the batch: nothing is written and nothing is announced.
 */
export async function commitPostgresBatch(
  dataSource: DataSource,
  rows: readonly BatchRow[],
  notifications?: BatchNotifications,
): Promise<void> {
  const last = lastPerTask(rows);
  const payloads =
    notifications?.payloadsOf(last.map((r) => ({ ...r.scope, taskId: String(r.values[2]) }))) ?? [];
  const chunks: BatchRow[][] = [];
  for (let i = 0; i < last.length; i += MAX_ROWS_PER_STATEMENT)
    chunks.push(last.slice(i, i + MAX_ROWS_PER_STATEMENT));
  const run = async (query: (sql: string, params: unknown[]) => Promise<unknown>) => {
    for (const [i, chunk] of chunks.entries()) {
      const notify = i === chunks.length - 1 && payloads.length > 0;
      const params = chunk.flatMap((r) => r.values);
      if (notify) params.push(notifications!.channel, ...payloads);
      await query(batchUpsertSql(chunk.length, notify ? payloads.length : 0), params);
    }
  };
  if (chunks.length <= 1) await run((sql, params) => dataSource.query(sql, params));
  else await dataSource.transaction((m) => run((sql, params) => m.query(sql, params)));
}
