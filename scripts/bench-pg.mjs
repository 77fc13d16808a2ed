// PostgreSQL for the ours-pg / ours-pg2 targets of scripts/bench.mjs (issue #15). Dev tool, not a test.
// Where it comes from: BENCH_DATABASE_URL (a server whose role may CREATE DATABASE; not pinned, its
// CPU not measured: it is not ours); else, when PostgreSQL binaries are installed
// (/usr/lib/postgresql/*/bin/pg_ctl), a throwaway cluster from scripts/ci-services.sh in a temp
// SQ_SERVICES_DIR (no Redis), pinned to the servers' CPU and stopped at exit however the bench
// ends; else none (the caller skips the PG targets, printing why). Each target gets a fresh
// database, dropped at exit.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { onExit, statFields, ticksOf } from './bench-lib.mjs';

const require = createRequire(import.meta.url);

/** `user@host:port/db` of a PostgreSQL URL: never the password. */
export function redacted(url) {
  const u = new URL(url);
  return `${u.username}@${u.host}${u.pathname}`;
}

function installedPgCtl() {
  try {
    return readdirSync('/usr/lib/postgresql')
      .map((v) => `/usr/lib/postgresql/${v}/bin/pg_ctl`)
      .find((p) => existsSync(p));
  } catch {
    return undefined;
  }
}

/** Pids whose parent is `ppid` (PostgreSQL forks every backend and worker from the postmaster). */
function childrenOf(ppid) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const rest = statFields(name); // null: exited meanwhile
    if (rest && Number(rest[1]) === ppid) out.push(Number(name));
  }
  return out;
}

/**
 * CPU ticks of a cluster so far: the postmaster (with the children it reaped) plus every live
 * backend and worker. Differences of two readings are the cluster's CPU between them.
 */
function clusterTicks(postmaster) {
  return ticksOf(postmaster, true) + childrenOf(postmaster).reduce((a, p) => a + ticksOf(p), 0);
}

function throwawayCluster(root, cpu) {
  // Its own directory (the script hands it to the postgres user), removed by `stop`.
  const dir = mkdtempSync(join(tmpdir(), 'superqode-bench-pg-'));
  const env = { ...process.env, SQ_SERVICES_DIR: dir, SQ_SERVICES_REDIS: '0' };
  const script = join(root, 'scripts/ci-services.sh');
  onExit(() => spawnSync(script, ['stop'], { env, stdio: 'ignore' }));
  const r = spawnSync(script, ['start'], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scripts/ci-services.sh start failed: ${r.stderr}`);
  const url = readFileSync(join(dir, 'env'), 'utf8').match(
    /SUPERQODE_TEST_DATABASE_URL=(\S+)/,
  )?.[1];
  if (!url) throw new Error(`scripts/ci-services.sh wrote no URL in ${dir}/env`);
  const postmaster = Number(readFileSync(join(dir, 'pg/postmaster.pid'), 'utf8').split('\n')[0]);
  if (cpu !== undefined) {
    // Backends forked later inherit the postmaster's affinity.
    for (const pid of [postmaster, ...childrenOf(postmaster)])
      spawnSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
  }
  return {
    url: url.replace(/^'|'$/g, ''),
    ticks: () => clusterTicks(postmaster),
    where: `throwaway cluster (scripts/ci-services.sh, fsync=off)${cpu === undefined ? ', not pinned' : `, pinned to CPU ${cpu}`}`,
  };
}

/**
 * PostgreSQL for the bench, with one fresh database per name in `names` (dropped at exit).
 * @param cpu - CPU to pin a throwaway cluster to (undefined: not pinned).
 * @returns `{ urls: name → URL, ticks(): number | null, where }`, or `{ skip: reason }`.
 */
export async function benchPostgres({ root, cpu, names }) {
  let server;
  const external = Boolean(process.env.BENCH_DATABASE_URL);
  if (external) {
    server = {
      url: process.env.BENCH_DATABASE_URL,
      ticks: () => null,
      where: 'BENCH_DATABASE_URL (not pinned; its CPU is not measured)',
    };
  } else if (installedPgCtl()) {
    server = throwawayCluster(root, cpu);
  } else {
    return {
      skip: 'no PostgreSQL: set BENCH_DATABASE_URL or install it (apt-get install postgresql)',
    };
  }
  const { Client } = require('pg');
  const admin = new Client({ connectionString: server.url });
  await admin.connect();
  const stem = `sq_bench_${randomBytes(4).toString('hex')}`;
  const urls = {};
  try {
    for (const name of names) {
      const db = `${stem}_${name.replace(/\W/g, '_')}`;
      await admin.query(`CREATE DATABASE "${db}"`);
      // A throwaway cluster is removed whole at exit.
      if (external) onExit(() => dropSync(server.url, db));
      const u = new URL(server.url);
      u.pathname = `/${db}`;
      urls[name] = u.toString();
    }
  } finally {
    await admin.end();
  }
  return { urls, ticks: server.ticks, where: `${server.where}, ${redacted(server.url)}` };
}

/** Drops a database synchronously (exit handlers cannot wait): a child Node with `pg`. */
function dropSync(url, db) {
  const code = `const { Client } = require('pg'); const c = new Client({ connectionString: process.env.U });
    c.connect().then(() => c.query('DROP DATABASE IF EXISTS "${db}" WITH (FORCE)')).finally(() => c.end());`;
  spawnSync(process.execPath, ['-e', code], {
    env: { ...process.env, U: url },
    cwd: require.resolve('pg').replace(/node_modules.*$/, ''),
    stdio: 'ignore',
    timeout: 10_000,
  });
}
