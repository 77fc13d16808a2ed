import { makeStateDir } from '../../../common/runtime/state-dir';
import { dirname, resolve } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { HARNESS_MIGRATIONS_TABLE } from '../harness.constants';
import { HARNESS_ENTITIES } from './harness-ledger.entities';
import { CreateHarnessLedger1760000000000 } from './migrations/1760000000000-create-harness-ledger';
import { AddRunLeases1765000000000 } from './migrations/1765000000000-add-run-leases';
import { CreateHarnessLedgerPostgres1765000000001 } from './migrations/postgres/1765000000001-create-harness-ledger-postgres';
import { postgresStoreOptions } from '../../../common/database/postgres-options';
import type { PostgresStoreOptions } from '../../../common/database/postgres-options';
import type { StoreLocation } from '../../../common/database/store-data-source';

/** TypeORM options of the better-sqlite3 driver (the embedded default). */
export type HarnessDataSourceOptions = Extract<DataSourceOptions, { type: 'better-sqlite3' }>;

/** Wait for a competing writer (a CLI run beside a server) before SQLITE_BUSY, ms. */
export const HARNESS_BUSY_TIMEOUT_MS = 5000;

/** Pragmas run once per connection, before TypeORM uses it. */
function prepareDatabase(db: { pragma(source: string): unknown }): void {
  // WAL + NORMAL: an event is durable once it reaches the WAL; a power cut may lose the last
  // few but never corrupts the file. Irrelevant (and harmless) for ':memory:'.
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${HARNESS_BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
}

/**
 * TypeORM data source options of the harness ledger: on SQLite (better-sqlite3), or on
 * PostgreSQL (`pg`) when the location has a `databaseUrl` (issue #15).
 * Schema comes from migrations (ledger `harness_migrations`): SQLite runs them at initialisation;
 * PostgreSQL with `migrate` (else `openStore` refuses a schema that is not current).
 * `synchronize` stays off so an entity edit can never rewrite recorded runs.
 * @param location - SQLite file (its parent directory is created; `null` or `':memory:'` keeps
 *   the ledger in memory, lost at exit, no WAL), or a `StoreLocation`.
 * @returns Options without a `name`: the Nest module names the data source `'harness'`.
 * @throws {Error} The parent directory cannot be created (permissions, a file in the way).
 */
export function harnessDataSourceOptions(location: string | null): HarnessDataSourceOptions;
export function harnessDataSourceOptions(
  location: StoreLocation,
): HarnessDataSourceOptions | PostgresStoreOptions;
export function harnessDataSourceOptions(
  location: string | null | StoreLocation,
): HarnessDataSourceOptions | PostgresStoreOptions {
  const where = typeof location === 'object' && location !== null ? location : { path: location };
  if (where.databaseUrl) {
    return postgresStoreOptions(where.databaseUrl, where.migrate ?? false, {
      entities: HARNESS_ENTITIES,
      migrations: [CreateHarnessLedgerPostgres1765000000001],
      migrationsTableName: HARNESS_MIGRATIONS_TABLE,
    });
  }
  const path = where.path;
  const inMemory = path === null || path === ':memory:';
  const database = inMemory ? ':memory:' : resolve(path);
  if (!inMemory) makeStateDir(dirname(database));
  return {
    type: 'better-sqlite3',
    database,
    enableWAL: !inMemory,
    timeout: HARNESS_BUSY_TIMEOUT_MS,
    prepareDatabase,
    entities: HARNESS_ENTITIES,
    migrations: [CreateHarnessLedger1760000000000, AddRunLeases1765000000000],
    migrationsRun: true,
    migrationsTableName: HARNESS_MIGRATIONS_TABLE,
    synchronize: false,
    logging: false,
  };
}
