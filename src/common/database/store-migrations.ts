import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { DataSourceOptions } from 'typeorm';

/**
 * Session advisory lock key of a store's migrations on PostgreSQL (first 8 bytes of the SHA-256
 * of the migrations table name, as a signed bigint), so instances started together with
 * `--migrate` run them one after the other.
 */
export function migrationLockKey(migrationsTable: string): string {
  return createHash('sha256').update(migrationsTable).digest().readBigInt64BE(0).toString();
}

/**
 * Opens a store's data source. SQLite (the embedded default) runs its migrations inside
 * `initialize()`. PostgreSQL runs them only when asked (`migrationsRun`: `--migrate`, or
 * `superqode db migrate`), under an advisory lock; otherwise a pending migration fails the start.
 * @returns The initialised data source.
 * @throws {Error} The database is unreachable, a migration failed, or (PostgreSQL, not asked to
 *   migrate) the schema is not current: the message names the pending migrations and the command.
 */
export async function openStore(options: DataSourceOptions): Promise<DataSource> {
  if (options.type !== 'postgres') return new DataSource(options).initialize();
  const source = await new DataSource({ ...options, migrationsRun: false }).initialize();
  try {
    if (options.migrationsRun) await runStoreMigrations(source);
    else await assertSchemaCurrent(source);
    return source;
  } catch (error) {
    await source.destroy();
    throw error;
  }
}

/**
 * Runs a store's pending migrations (each in its own transaction); on PostgreSQL under a session
 * advisory lock held on a dedicated connection, so concurrent runs never apply one twice.
 * @returns Names of the migrations applied (empty: the schema was current).
 */
export async function runStoreMigrations(source: DataSource): Promise<string[]> {
  if (source.options.type !== 'postgres') {
    return (await source.runMigrations({ transaction: 'each' })).map((m) => m.name);
  }
  const key = migrationLockKey(source.options.migrationsTableName ?? 'migrations');
  const lock = source.createQueryRunner();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [key]);
    return (await source.runMigrations({ transaction: 'each' })).map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
    await lock.release();
  }
}

/**
 * @throws {Error} A migration of this store has not run: names the store's migrations table,
 *   the pending migrations and how to run them.
 */
export async function assertSchemaCurrent(source: DataSource): Promise<void> {
  if (!(await source.showMigrations())) return;
  const applied = new Set(
    (
      (await source
        .query(`SELECT "name" FROM "${source.options.migrationsTableName ?? 'migrations'}"`)
        .catch(() => [])) as { name: string }[]
    ).map((r) => r.name),
  );
  const pending = source.migrations
    .map((m) => m.name ?? m.constructor.name)
    .filter((n) => !applied.has(n));
  throw new Error(
    `The PostgreSQL schema of ${source.options.migrationsTableName} is not current ` +
      `(pending: ${pending.join(', ')}): run \`superqode db migrate\` or start with --migrate.`,
  );
}
