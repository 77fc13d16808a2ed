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
import { commitPostgresBatch } from './postgres-batch-upsert';
import type { BatchNotifications } from './postgres-batch-upsert';
import {
  DEFAULT_MAX_LIST_REPLY_BYTES,
  DEFAULT_MAX_PAGE_SIZE,
  PAYLOAD_COLUMNS,
  encodePageToken,
  listQueries,
  withinBytes,
} from './task-list-queries';
import type { ListedRow } from './task-list-queries';

import { TASKS_CONNECTION, TASKS_MODULE_OPTIONS } from './tasks.constants';

const LOAD_TASK_SQL =
  `SELECT ${PAYLOAD_COLUMNS}, "artifacts", "history" FROM "a2a_tasks" ` +
  `WHERE "tenant" = ? AND "owner" = ? AND "id" = ?`;

/** One save's upsert, computed at the save (see {@link TypeOrmTaskStore.rowOf}). */
export interface PreparedTaskRow {
  scope: TaskScope;
  task: Task;
  values: unknown[];
}

/** Construction options of {@link TypeOrmTaskStore}. */
export interface TypeOrmTaskStoreOptions {
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
 * `sqlFor`: `?` placeholders become `$n`). The memory-only mode uses {@link MemoryTaskStore}.
 * @see SDK `InMemoryTaskStore` and `DatabaseTaskStore` (`@a2a-js/sdk/server/database`).
 */
@Injectable()
export class TypeOrmTaskStore implements TaskStore {
  private readonly logger = new Logger(TypeOrmTaskStore.name);
  private readonly ownerResolver: OwnerResolver;
  private readonly nowMs: () => number;
  private readonly maxPageSize: number;
  private readonly maxListReplyBytes: number;
  private readonly instance: ProcessInstance;
  private readonly failures: TaskWriteFailures;
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
    this.maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
    this.maxListReplyBytes = options.maxListReplyBytes ?? DEFAULT_MAX_LIST_REPLY_BYTES;
    this.instance = instance ?? new ProcessInstance();
    this.failures = failures ?? new TaskWriteFailures();
    this.postgres = isPostgres(dataSource);
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
    try {
      if (this.postgres) await querySql(this.dataSource, UPSERT_TASK_SQL, taskRowValues(row));
      else this.prepared().upsert.run(taskRowValues(row));
    } catch (error) {
      if (this.closed()) throw this.closedError([task.id], error);
      this.failures.record(scope, task, error as Error);
      this.logger.error(`Task "${task.id}" not saved: ${(error as Error).message}`);
      throw error;
    }
    this.failures.clear(scope, task.id);
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
   * of concurrent requests). On PostgreSQL: one multi-row upsert of each task's last row, with
   * `notifications` sent in the same statement ({@link commitPostgresBatch}); SQLite ignores them.
   * A failure is recorded for every row, as {@link save} records one.
   * @throws {Error} The store failed; the transaction is rolled back and no row is written.
   */
  async commitRows(rows: PreparedTaskRow[], notifications?: BatchNotifications): Promise<void> {
    try {
      if (this.postgres) await commitPostgresBatch(this.dataSource, rows, notifications);
      else {
        const { upsert } = this.prepared();
        this.sqlite().transaction(() => {
          for (const r of rows) upsert.run(r.values);
        })();
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
}
