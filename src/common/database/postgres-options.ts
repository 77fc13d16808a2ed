import type { DataSourceOptions } from 'typeorm';

/** TypeORM options of the `pg` driver. */
export type PostgresStoreOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

/** Connections per store and instance (the task store and the ledger have one pool each). */
export const POSTGRES_POOL_SIZE = 10;

/** Time to open a connection before the start (or a query) fails, ms. */
export const POSTGRES_CONNECT_TIMEOUT_MS = 10_000;

/**
 * TypeORM options of a store on PostgreSQL through `pg` (issue #15): the URL, bigints parsed as
 * numbers (epoch-ms columns, `COUNT(*)`; exact below 2^53), no extension installs, no
 * `synchronize`; migrations run only when `migrate` (see `openStore`).
 * @param url - `postgres://user:password@host:port/db`; never logged (see `redactDatabaseUrl`).
 * @see node_modules/typeorm/driver/postgres/PostgresDataSourceOptions.d.ts
 */
export function postgresStoreOptions(
  url: string,
  migrate: boolean,
  store: Pick<PostgresStoreOptions, 'entities' | 'migrations' | 'migrationsTableName'>,
): PostgresStoreOptions {
  return {
    type: 'postgres',
    url,
    ...store,
    parseInt8: true,
    installExtensions: false,
    poolSize: POSTGRES_POOL_SIZE,
    connectTimeoutMS: POSTGRES_CONNECT_TIMEOUT_MS,
    applicationName: 'superqode-a2a',
    migrationsRun: migrate,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
  };
}
