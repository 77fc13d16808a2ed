import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { DataSource, EntityManager } from 'typeorm';

/** Anything that runs raw SQL on a store: a data source or a transaction's entity manager. */
export type SqlRunner =
  Pick<DataSource, 'query' | 'driver'> | Pick<EntityManager, 'query' | 'connection'>;

const converted = new Map<string, string>();

/** Whether raw SQL runs on PostgreSQL (else SQLite, better-sqlite3). */
export function isPostgres(runner: SqlRunner): boolean {
  const driver = 'driver' in runner ? runner.driver : runner.connection.driver;
  return driver.options.type === 'postgres';
}

/**
 * The store's raw SQL for the runner's dialect. The statements are written once, in the subset
 * both SQLite and PostgreSQL read (double-quoted identifiers, `ON CONFLICT … DO UPDATE`,
 * `RETURNING`, row values), with `?` placeholders; PostgreSQL gets `$1, $2, …` instead. A `?`
 * inside a quoted literal or identifier is left alone. Conversions are cached (the store's SQL is
 * a fixed set of strings).
 */
export function sqlFor(runner: SqlRunner, sql: string): string {
  if (!isPostgres(runner)) return sql;
  let pg = converted.get(sql);
  if (pg === undefined) {
    pg = toNumberedPlaceholders(sql);
    if (converted.size < 1000) converted.set(sql, pg);
  }
  return pg;
}

/** Runs `sql` (written with `?` placeholders) on the runner's dialect. */
export function querySql<T = unknown>(
  runner: SqlRunner,
  sql: string,
  params: unknown[] = [],
): Promise<T> {
  return runner.query(sqlFor(runner, sql), params) as Promise<T>;
}

/** `?` → `$n` outside `'…'` and `"…"`. */
export function toNumberedPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const c of sql) {
    if (quote) {
      if (c === quote) quote = null;
      out += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      out += c;
    } else out += c === '?' ? `$${++n}` : c;
  }
  return out;
}

/**
 * PostgreSQL `text` cannot hold U+0000 (SQLite can): key and filter values with it are refused as
 * invalid input rather than failing in the driver (an internal error). JSON payload columns are
 * unaffected (`JSON.stringify` escapes it as `\u0000`).
 * @throws {RequestMalformedError} A value contains U+0000, naming the field.
 */
export function assertNoNul(fields: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (value?.includes('\u0000'))
      throw new RequestMalformedError(`${name} must not contain U+0000 (NUL)`);
  }
}
