import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { resolveUserScope } from '@a2a-js/sdk/server';
import type { OwnerResolver, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Database, Statement } from 'better-sqlite3';
import { ProcessInstance } from '../../common/runtime/process-instance';
import { assertNoNul, isPostgres, querySql } from '../../common/database/sql-dialect';
import { fromTaskRow, taskRowValues, toTaskEntity, UPSERT_TASK_SQL } from './task.entity';
import type { TaskPayloadRow, TaskScope } from './task.entity';
import { TaskWriteFailures } from './task-write-failures';
import { TaskStoreClosedError } from './task-store-closed.error';
import {
  DEFAULT_MAX_LIST_REPLY_BYTES,
  DEFAULT_MAX_PAGE_SIZE,
  PAYLOAD_COLUMNS,
  encodePageToken,
  listQueries,
} from './task-list-queries';
import type { ListedRow } from './task-list-queries';

import { TASKS_CONNECTION, TASKS_MODULE_OPTIONS } from './tasks.constants';

/** Tasks past this share above `maxTasks` trigger pruning (hysteresis: not every save). */
export const RETENTION_SLACK = 0.1;

const LOAD_TASK_SQL =
  `SELECT ${PAYLOAD_COLUMNS}, "artifacts", "history" FROM "a2a_tasks" ` +
  `WHERE "tenant" = ? AND "owner" = ? AND "id" = ?`;

const COUNT_ALL_SQL = 'SELECT COUNT(*) AS "total" FROM "a2a_tasks"';
/** Oldest first by status timestamp, terminal states before all others. */
const PRUNE_SQL =
  'DELETE FROM "a2a_tasks" WHERE rowid IN (SELECT rowid FROM "a2a_tasks" ORDER BY ' +
  `CASE WHEN "status_state" IN ('TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', ` +
  `'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED') THEN 0 ELSE 1 END, ` +
  '"status_timestamp_ms", "id" LIMIT ?)';

/** One save's upsert, computed at the save (see {@link TypeOrmTaskStore.rowOf}). */
export interface PreparedTaskRow {
  scope: TaskScope;
  task: Task;
  values: unknown[];
}

/** Construction options of {@link TypeOrmTaskStore}. */
export interface TypeOrmTaskStoreOptions {
  /**
   * Row cap (positive integer) over all tenants and owners, meant for the memory-only mode;
   * null/absent: none. Past 10% over, the oldest rows by status timestamp are deleted down
   * to the cap, terminal states (completed, failed, canceled, rejected) before any other.
   */
  maxTasks?: number | null;
  /** Owner of a call; default the SDK's `resolveUserScope` (`user.userName || 'unknown'`). */
  ownerResolver?: OwnerResolver;
  /** Clock of the bookkeeping columns, epoch ms; default `Date.now`. */
  nowMs?: () => number;
  /** Page size cap (1-100) of `list`; larger requests get this many; default 100. */
  maxPageSize?: number;
  /**
   * Stored JSON bytes (status, artifacts, history, metadata) one list page may carry; the page
   * ends before the task that would exceed it (at least one task), with a next page token.
   * Default {@link DEFAULT_MAX_LIST_REPLY_BYTES}.
   */
  maxListReplyBytes?: number;
}

/**
 * Durable A2A `TaskStore` on TypeORM, SQLite (better-sqlite3) or PostgreSQL (`pg`, issue #15),
 * with the SDK's semantics:
 * rows scoped by (tenant = `ctx.tenant ?? ''`, owner = ownerResolver(ctx)), payload through
 * `Task.toJSON`/`Task.fromJSON`, fresh objects on every read.
 *
 * Hot path (one save and two loads per SendMessage in the SDK 1.3 request handler): `save` and
 * `load` run prepared statements on the better-sqlite3 handle of the TypeORM data source (the
 * same connection, so TypeORM transactions and migrations see the same data; TypeORM's query
 * runner costs ~17 µs of CPU per call on top). List, count and retention use `DataSource.query`.
 * Dialect seam: on PostgreSQL, save and load run the same SQL through `DataSource.query` (see
 * `sqlFor`: `?` placeholders become `$n`); `maxTasks` (the memory mode's cap) is SQLite only.
 * @see SDK `InMemoryTaskStore` and `DatabaseTaskStore` (`@a2a-js/sdk/server/database`).
 */
@Injectable()
export class TypeOrmTaskStore implements TaskStore {
  private readonly logger = new Logger(TypeOrmTaskStore.name);
  private readonly ownerResolver: OwnerResolver;
  private readonly nowMs: () => number;
  private readonly maxTasks: number | null;
  private readonly maxPageSize: number;
  private readonly maxListReplyBytes: number;
  private readonly instance: ProcessInstance;
  private readonly failures: TaskWriteFailures;
  /** Rows known to exist (null: not counted yet); grows on each insert seen. */
  private rowCount: number | null = null;
  private lastInsertRowid: unknown;
  private retentionBusy = false;
  /** A write after close was already logged (see {@link closedError}). */
  private closedWriteLogged = false;
  private statements?: { upsert: Statement; load: Statement };
  /** The data source is PostgreSQL (no better-sqlite3 handle, no rowids). */
  private readonly postgres: boolean;

  constructor(
    @InjectDataSource(TASKS_CONNECTION) private readonly dataSource: DataSource,
    @Optional() @Inject(TASKS_MODULE_OPTIONS) options: TypeOrmTaskStoreOptions = {},
    @Optional() instance?: ProcessInstance,
    @Optional() failures?: TaskWriteFailures,
  ) {
    this.ownerResolver = options.ownerResolver ?? resolveUserScope;
    this.nowMs = options.nowMs ?? Date.now;
    this.maxTasks = options.maxTasks ?? null;
    this.maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
    this.maxListReplyBytes = options.maxListReplyBytes ?? DEFAULT_MAX_LIST_REPLY_BYTES;
    this.instance = instance ?? new ProcessInstance();
    this.failures = failures ?? new TaskWriteFailures();
    if (this.maxTasks !== null && !(Number.isSafeInteger(this.maxTasks) && this.maxTasks > 0)) {
      throw new Error(`maxTasks must be a positive integer, got ${this.maxTasks}`);
    }
    this.postgres = isPostgres(dataSource);
    if (this.postgres && this.maxTasks !== null) {
      throw new Error('maxTasks (the memory mode cap) is not supported on PostgreSQL');
    }
  }

  /**
   * Inserts or replaces the caller's task with one upsert (no read first). A SUBMITTED or
   * WORKING task is recorded as owned by this process (lease renewed now), in the same write.
   * A failed write is remembered ({@link TaskWriteFailures}) so the task is ended FAILED once
   * the store accepts writes again.
   * @throws {Error} The task has no id, or SQLite failed (read-only, disk full, busy past the
   *   timeout): the SDK's handler answers the request with an internal error.
   */
  async save(task: Task, context: ServerCallContext): Promise<void> {
    const scope = this.scopeOf(context);
    const row = toTaskEntity(scope, task, this.nowMs(), this.instance.id);
    if (this.postgres) assertNoNul({ ...scope, taskId: row.id, contextId: row.contextId });
    let lastInsertRowid: unknown;
    try {
      lastInsertRowid = this.postgres
        ? await querySql(this.dataSource, UPSERT_TASK_SQL, taskRowValues(row))
        : this.prepared().upsert.run(taskRowValues(row)).lastInsertRowid;
    } catch (error) {
      if (this.closed()) throw this.closedError([task.id], error);
      this.failures.record(scope, task, error as Error);
      this.logger.error(`Task "${task.id}" not saved: ${(error as Error).message}`);
      throw error;
    }
    this.failures.clear(scope, task.id);
    if (this.maxTasks !== null) await this.enforceRetention(lastInsertRowid, this.maxTasks);
  }

  /**
   * The upsert of one save, computed now (the task may change afterwards): the first half of a
   * group commit ({@link commitRows}); lease columns as {@link save} writes them.
   * @throws {Error} The task has no id; a key holds U+0000 on PostgreSQL.
   */
  rowOf(task: Task, context: ServerCallContext): PreparedTaskRow {
    const scope = this.scopeOf(context);
    const row = toTaskEntity(scope, task, this.nowMs(), this.instance.id);
    if (this.postgres) assertNoNul({ ...scope, taskId: row.id, contextId: row.contextId });
    return { scope, task, values: taskRowValues(row) };
  }

  /**
   * Upserts rows made by {@link rowOf} in one transaction (group commit: one commit for the saves
   * of concurrent requests; on PostgreSQL one transaction per batch), then applies retention.
   * A failure is recorded for every row, as {@link save} records one.
   * @throws {Error} The store failed; the transaction is rolled back and no row is written.
   */
  async commitRows(rows: PreparedTaskRow[]): Promise<void> {
    let rowids: unknown[] = [];
    try {
      if (this.postgres) {
        await this.dataSource.transaction(async (m) => {
          for (const r of rows) await querySql(m, UPSERT_TASK_SQL, r.values);
        });
      } else {
        const { upsert } = this.prepared();
        rowids = this.sqlite().transaction(() =>
          rows.map((r) => upsert.run(r.values).lastInsertRowid),
        )();
      }
    } catch (error) {
      if (this.closed())
        throw this.closedError(
          rows.map((r) => r.task.id),
          error,
        );
      for (const r of rows) this.failures.record(r.scope, r.task, error as Error);
      this.logger.error(`${rows.length} task saves not committed: ${(error as Error).message}`);
      throw error;
    }
    for (const r of rows) this.failures.clear(r.scope, r.task.id);
    if (this.maxTasks === null) return;
    for (const rowid of rowids) await this.enforceRetention(rowid, this.maxTasks);
  }

  /**
   * The caller's task, as a fresh object; undefined when absent or owned by another scope.
   * @throws {Error} `task "<id>" is not readable` when its stored JSON is corrupt.
   */
  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const scope = this.scopeOf(context);
    if (this.postgres) assertNoNul({ ...scope, taskId });
    const row = this.postgres
      ? (
          await querySql<TaskPayloadRow[]>(this.dataSource, LOAD_TASK_SQL, [
            scope.tenant,
            scope.owner,
            taskId,
          ])
        )[0]
      : (this.prepared().load.get(scope.tenant, scope.owner, taskId) as TaskPayloadRow | undefined);
    return row ? fromTaskRow(row) : undefined;
  }

  /**
   * The caller's tasks, newest status timestamp first (then id descending), one page at a time.
   * Shapes: `totalSize` counts all matches; `nextPageToken` is '' on the last page;
   * `pageSize` is echoed; `artifacts` are [] unless `includeArtifacts`; `history` is [] when
   * `historyLength <= 0` (the handler trims longer histories). Unreadable rows are skipped.
   * Caps: at most `maxPageSize` tasks, and the page ends early (with a `nextPageToken` at the
   * last task returned) once its stored JSON would pass `maxListReplyBytes`.
   * @throws {RequestMalformedError} Malformed `pageToken`, `statusTimestampAfter` or `pageSize`.
   */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const scope = this.scopeOf(context);
    if (this.postgres)
      assertNoNul({ ...scope, contextId: params.contextId, pageToken: params.pageToken });
    const { count, page, pageSize } = listQueries(scope, params, this.maxPageSize);
    const [{ total }] = await querySql<{ total: number }[]>(
      this.dataSource,
      count.sql,
      count.params,
    );
    const rows = await querySql<ListedRow[]>(this.dataSource, page.sql, page.params);
    const pageRows = withinBytes(rows.slice(0, pageSize), this.maxListReplyBytes);
    const tasks: Task[] = [];
    for (const row of pageRows) {
      try {
        tasks.push(fromTaskRow(row));
      } catch (error) {
        this.logger.error(`Skipping unreadable task "${row.id}" in list`, (error as Error).stack);
      }
    }
    const last = pageRows.at(-1);
    const nextPageToken =
      rows.length > pageRows.length && last ? encodePageToken(last.timestampMs, last.id) : '';
    return { tasks, nextPageToken, pageSize, totalSize: Number(total) };
  }

  /** The data source was destroyed (shutdown): writes fail with {@link TaskStoreClosedError}. */
  private closed(): boolean {
    return !this.dataSource.isInitialized;
  }

  /** The error for writes after close; the first is logged at WARN, later ones not at all. */
  private closedError(taskIds: string[], cause: unknown): TaskStoreClosedError {
    const error = new TaskStoreClosedError(taskIds, { cause });
    if (!this.closedWriteLogged) {
      this.closedWriteLogged = true;
      this.logger.warn(`${error.message} (task "${taskIds[0]}"); later ones are not logged.`);
    }
    return error;
  }

  private scopeOf(context: ServerCallContext): TaskScope {
    return { tenant: context.tenant ?? '', owner: this.ownerResolver(context) };
  }

  /** Statements of the hot path, prepared on first use (after the data source's migrations). */
  private prepared(): { upsert: Statement; load: Statement } {
    if (!this.statements) {
      const db = this.sqlite();
      this.statements = { upsert: db.prepare(UPSERT_TASK_SQL), load: db.prepare(LOAD_TASK_SQL) };
    }
    return this.statements;
  }

  /** better-sqlite3 handle of the TypeORM driver (`AbstractSqliteDriver.databaseConnection`). */
  private sqlite(): Database {
    return (this.dataSource.driver as unknown as { databaseConnection: Database })
      .databaseConnection;
  }

  /**
   * Counts inserts in process (a changed last-insert rowid means the upsert inserted) and
   * only queries the table when the cap may be exceeded. Failures are logged, not thrown:
   * the save itself succeeded.
   */
  private async enforceRetention(insertRowid: unknown, maxTasks: number): Promise<void> {
    if (insertRowid !== this.lastInsertRowid) {
      this.lastInsertRowid = insertRowid;
      if (this.rowCount !== null) this.rowCount += 1;
    }
    const pruneAbove = Math.floor(maxTasks * (1 + RETENTION_SLACK));
    if (this.retentionBusy || (this.rowCount !== null && this.rowCount <= pruneAbove)) return;
    this.retentionBusy = true;
    try {
      let total = await this.countAll();
      if (total > pruneAbove) {
        await this.dataSource.query(PRUNE_SQL, [total - maxTasks]);
        total = await this.countAll();
        this.logger.debug(`Pruned task store down to ${total} rows (maxTasks ${maxTasks}).`);
      }
      this.rowCount = total;
    } catch (error) {
      this.logger.warn(`Task retention failed: ${(error as Error).message}`);
    } finally {
      this.retentionBusy = false;
    }
  }

  private async countAll(): Promise<number> {
    const [{ total }]: { total: number }[] = await this.dataSource.query(COUNT_ALL_SQL);
    return Number(total);
  }
}

/** The leading rows whose stored JSON fits in `maxBytes` (always at least the first row). */
function withinBytes(rows: ListedRow[], maxBytes: number): ListedRow[] {
  let bytes = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    for (const text of [r.status, r.artifacts, r.history, r.metadata]) {
      if (text) bytes += Buffer.byteLength(text, 'utf8');
    }
    if (bytes > maxBytes && i > 0) return rows.slice(0, i);
  }
  return rows;
}
