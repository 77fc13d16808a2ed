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
 * Opens a store's data source and runs its pending migrations through {@link runStoreMigrations}
 * when `migrationsRun` is set: always for SQLite (the embedded default), for PostgreSQL only when
 * asked (`--migrate`, or `superqode db migrate`); otherwise a pending PostgreSQL migration fails
 * the start.
 * @returns The initialised data source.
 * @throws {Error} The database is unreachable, a migration failed, (SQLite) another process held
 *   the file locked past the busy timeout (the message names the file), or (PostgreSQL, not asked
 *   to migrate) the schema is not current: the message names the pending migrations and the command.
 */
export async function openStore(options: DataSourceOptions): Promise<DataSource> {
  const source = await new DataSource({ ...options, migrationsRun: false })
    .initialize()
    .catch((error: unknown) => {
      throw lockedStore(options, error);
    });
  try {
    if (options.migrationsRun) await runStoreMigrations(source);
    else if (options.type === 'postgres') await assertSchemaCurrent(source);
    return source;
  } catch (error) {
    await source.destroy();
    throw error;
  }
}

/**
 * Runs a store's pending migrations so that processes starting together on one database apply
 * each exactly once, and none fails on another's half-made schema. SQLite: a current schema is
 * seen with reads only ({@link pendingMigrations}); otherwise all pending migrations, the
 * migrations table included, run in one `BEGIN IMMEDIATE` transaction on the data source's one
 * connection (the better-sqlite3 driver has one), which holds SQLite's write lock: another
 * process waits for it (up to the store's busy timeout), then finds the schema current. Before,
 * TypeORM's check-then-create of the migrations table let servers started together on a new
 * working directory fail with `table "…_migrations" already exists`. Inside that transaction
 * `PRAGMA foreign_keys` is a no-op and a migration cannot open its own transaction, so a future
 * SQLite migration that rebuilds a table (foreign keys off) must run outside it; today's
 * migrations (CREATE, ALTER ADD, CREATE INDEX) need neither. PostgreSQL: each migration in its
 * own transaction, under a session advisory lock held on a dedicated connection.
 * @returns Names of the migrations applied (empty: the schema was current).
 * @throws {Error} A migration failed (SQLite: nothing of the run is kept), or (SQLite) another
 *   process held the write lock past the busy timeout: the message names the file
 *   ({@link lockedStore}).
 */
export async function runStoreMigrations(source: DataSource): Promise<string[]> {
  if (source.options.type !== 'postgres') {
    if ((await pendingMigrations(source)).length === 0) return [];
    await source.query('BEGIN IMMEDIATE').catch((error: unknown) => {
      throw lockedStore(source.options, error);
    });
    try {
      const applied = await source.runMigrations({ transaction: 'none' });
      await source.query('COMMIT');
      return applied.map((m) => m.name);
    } catch (error) {
      await source.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
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
 * The error of a SQLite store another process held locked past the busy timeout (`SQLITE_BUSY`,
 * from better-sqlite3 or wrapped by TypeORM), while this one opened it (switching it to WAL) or
 * had migrations to run: names the file and what to do. Other errors as they are.
 */
function lockedStore(options: DataSourceOptions, error: unknown): unknown {
  const busy = (e: unknown): boolean => (e as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
  if (!busy(error) && !busy((error as { driverError?: unknown } | null)?.driverError)) return error;
  const { database } = options as { database?: unknown };
  return new Error(
    `The store ${String(database)} is locked by another process, which held it throughout the ` +
      'busy timeout while this one opened or migrated it (another server migrating or writing ' +
      'it, or an open sqlite3 session); start again once that process is done.',
    { cause: error },
  );
}

/**
 * Names of the store's migrations its migrations table does not record, read without creating
 * anything (TypeORM's own check creates the table first, a write); no table: all of them.
 */
async function pendingMigrations(source: DataSource): Promise<string[]> {
  const table = source.options.migrationsTableName ?? 'migrations';
  const rows = (await source.query(`SELECT "name" FROM "${table}"`).catch(() => [])) as {
    name: string;
  }[];
  const applied = new Set(rows.map((r) => r.name));
  return source.migrations.map((m) => m.name ?? m.constructor.name).filter((n) => !applied.has(n));
}

/**
 * @throws {Error} A migration of this store has not run: names the store's migrations table,
 *   the pending migrations and how to run them.
 */
export async function assertSchemaCurrent(source: DataSource): Promise<void> {
  if (!(await source.showMigrations())) return;
  const pending = await pendingMigrations(source);
  throw new Error(
    `The PostgreSQL schema of ${source.options.migrationsTableName} is not current ` +
      `(pending: ${pending.join(', ')}): run \`superqode db migrate\` or start with --migrate.`,
  );
}
