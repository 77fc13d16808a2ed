import { makeStateDir } from '../../common/runtime/state-dir';
import { dirname, resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { CreateA2aTasks1733000000000 } from './migrations/1733000000000-create-a2a-tasks';
import { AddTaskLeases1765000000000 } from './migrations/1765000000000-add-task-leases';
import { AddTaskRetentionIndex1765000000002 } from './migrations/1765000000002-add-task-retention-index';
import { CreateA2aTasksPostgres1765000000001 } from './migrations/postgres/1765000000001-create-a2a-tasks-postgres';
import { postgresStoreOptions } from '../../common/database/postgres-options';
import type { PostgresStoreOptions } from '../../common/database/postgres-options';
import type { StoreLocation } from '../../common/database/store-data-source';
import { TaskEntity } from './task.entity';
import { TASKS_MIGRATIONS_TABLE } from './tasks.constants';

/** TypeORM options of the better-sqlite3 driver (the embedded default). */
export type TasksDataSourceOptions = Extract<DataSourceOptions, { type: 'better-sqlite3' }>;

/** Wait for a competing writer (another process on the same file) before SQLITE_BUSY, ms. */
export const TASKS_BUSY_TIMEOUT_MS = 5000;

/**
 * Prepared statements kept per connection. The store issues a fixed set of SQL strings
 * (upsert, load, 8 count and 64 page variants, retention), so all of them stay cached.
 */
export const TASKS_STATEMENT_CACHE_SIZE = 200;

/** Pragmas run once per connection, before TypeORM uses it. */
function prepareDatabase(db: { pragma(source: string): unknown }): void {
  // WAL + NORMAL: a commit is durable once it reaches the WAL; a power cut may lose the last
  // transactions but never corrupts the file. Irrelevant (and harmless) for ':memory:'.
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${TASKS_BUSY_TIMEOUT_MS}`);
  db.pragma('temp_store = MEMORY');
}

/**
 * TypeORM data source options for the task store: on SQLite (better-sqlite3), or on PostgreSQL
 * (`pg`) when the location has a `databaseUrl` (issue #15).
 * Schema comes from migrations (ledger `a2a_tasks_migrations`): SQLite runs them at
 * initialisation; PostgreSQL with `migrate` (else `openStore` refuses a schema that is not current).
 * `synchronize` stays off so an entity edit can never rewrite production data.
 * @param location - SQLite file (its parent directory is created; `null` keeps tasks in memory,
 *   `:memory:`, lost at exit, no WAL), or a `StoreLocation`.
 * @returns Options without a `name`: the Nest module names the data source `'tasks'`.
 * @throws {Error} The parent directory cannot be created (permissions, a file in the way).
 * @see node_modules/typeorm/driver/better-sqlite3/BetterSqlite3DataSourceOptions.d.ts
 */
export function tasksDataSourceOptions(location: string | null): TasksDataSourceOptions;
export function tasksDataSourceOptions(
  location: StoreLocation,
): TasksDataSourceOptions | PostgresStoreOptions;
export function tasksDataSourceOptions(
  location: string | null | StoreLocation,
): TasksDataSourceOptions | PostgresStoreOptions {
  const where = typeof location === 'object' && location !== null ? location : { path: location };
  if (where.databaseUrl) {
    return postgresStoreOptions(where.databaseUrl, where.migrate ?? false, {
      entities: [TaskEntity],
      migrations: [CreateA2aTasksPostgres1765000000001],
      migrationsTableName: TASKS_MIGRATIONS_TABLE,
    });
  }
  const path = where.path;
  const database = path === null ? ':memory:' : resolve(path);
  if (path !== null) makeStateDir(dirname(database));
  return {
    type: 'better-sqlite3',
    database,
    enableWAL: path !== null,
    timeout: TASKS_BUSY_TIMEOUT_MS,
    statementCacheSize: TASKS_STATEMENT_CACHE_SIZE,
    prepareDatabase,
    entities: [TaskEntity],
    migrations: [
      CreateA2aTasks1733000000000,
      AddTaskLeases1765000000000,
      AddTaskRetentionIndex1765000000002,
    ],
    migrationsRun: true,
    migrationsTableName: TASKS_MIGRATIONS_TABLE,
    synchronize: false,
    logging: false,
  };
}
