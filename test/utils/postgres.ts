import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';

/**
 * PostgreSQL for tests (issue #15): `SUPERQODE_TEST_DATABASE_URL` names a server whose role may
 * create databases (`scripts/ci-services.sh start` makes one on loopback; `.ci/run` exports it).
 * Every test database is created fresh and dropped after, so suites running at the same time
 * never share tables.
 */
export const TEST_DATABASE_URL = process.env.SUPERQODE_TEST_DATABASE_URL;

/** The store backends a parametrised suite runs on. */
export type StoreBackend = 'sqlite' | 'postgres';

/** Backends to run: both when PostgreSQL is configured (or CI=true: then its absence fails). */
export function storeBackends(): StoreBackend[] {
  if (TEST_DATABASE_URL || process.env.CI === 'true') return ['sqlite', 'postgres'];
  console.warn(
    'PostgreSQL store tests skipped: SUPERQODE_TEST_DATABASE_URL is not set (scripts/ci-services.sh start)',
  );
  return ['sqlite'];
}

/** A fresh database on the test server; `drop()` removes it (closing its connections). */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (ds: DataSource) => Promise<T>): Promise<T> {
  if (!TEST_DATABASE_URL) {
    throw new Error(
      'PostgreSQL needed (CI=true: not skipped): SUPERQODE_TEST_DATABASE_URL is not set; run scripts/ci-services.sh start',
    );
  }
  const ds = await new DataSource({
    type: 'postgres',
    url: TEST_DATABASE_URL,
    poolSize: 1,
  }).initialize();
  try {
    return await work(ds);
  } finally {
    await ds.destroy();
  }
}

/**
 * Creates an empty database `sq_test_<random>` on the test server.
 * @throws {Error} PostgreSQL is not configured or not reachable.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `sq_test_${randomBytes(6).toString('hex')}`;
  await admin((ds) => ds.query(`CREATE DATABASE "${name}"`));
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      admin((ds) => ds.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
