// Helpers of scripts/bench.mjs: loopback ports, child servers (pinned, killed on exit),
// /proc readings and small statistics. Dev tool, not a test.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** The only host the bench ever talks to. */
export const HOST = '127.0.0.1';

/** `n` distinct free TCP ports on the loopback interface (held together, then released). */
export async function freePorts(n) {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise((resolve, reject) => {
          const s = createServer();
          s.once('error', reject);
          s.listen(0, HOST, () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => s.address().port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** True when `taskset` is on the PATH. */
export function hasTaskset() {
  return spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Pins every thread of this process to `cpu` (threads created later inherit it). */
export function pinSelf(cpu) {
  const r = spawnSync('taskset', ['-a', '-cp', String(cpu), String(process.pid)], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`taskset -a -cp ${cpu} ${process.pid} failed: ${r.stderr}`);
}

const children = new Set();
const cleanups = [];

/** Registers a synchronous cleanup (e.g. removing a temp dir) run once at exit. */
export function onExit(fn) {
  cleanups.push(fn);
}

function killAllNow() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  while (cleanups.length) {
    try {
      cleanups.pop()();
    } catch {
      /* best effort at exit */
    }
  }
}
process.on('exit', killAllNow);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    console.error(`\n${sig}: stopping every server and exiting.`);
    process.exit(130);
  });
}

/**
 * Starts a server as a child process, pinned to `cpu` with taskset when given (taskset execs,
 * so the pid is the server's). Output is kept (last 200 lines) for the report.
 */
export function startChild(name, cmd, args, { env, cwd, cpu }) {
  const [file, argv] =
    cpu === undefined ? [cmd, args] : ['taskset', ['-c', String(cpu), cmd, ...args]];
  const child = spawn(file, argv, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const lines = [];
  const keep = (chunk) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(line);
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { name, child, pid: child.pid, lines, exited };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child has exited. */
export async function stopChild(srv, graceMs = 5000) {
  if (srv.child.exitCode === null && srv.child.signalCode === null) {
    srv.child.kill('SIGTERM');
    const timer = setTimeout(() => srv.child.kill('SIGKILL'), graceMs);
    await srv.exited;
    clearTimeout(timer);
  }
  children.delete(srv.child);
}

/** Polls `url` until it answers 2xx; throws on timeout or when the child exits first. */
export async function waitReady(srv, url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (srv.child.exitCode !== null || srv.child.signalCode !== null) {
      throw new Error(
        `${srv.name} exited before it was ready:\n${srv.lines.slice(-20).join('\n')}`,
      );
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${srv.name} not ready at ${url} after ${timeoutMs} ms (${last})`);
}

/** VmRSS and VmHWM (peak) of a live process in MiB, from /proc/<pid>/status; null if unreadable. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
    return { rssMiB: kb('VmRSS') / 1024, peakRssMiB: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Fields of /proc/<pid>/stat after the command name (`state` first); null if unreadable. */
export function statFields(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return f.slice(f.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * Clock ticks (1/100 s) of CPU time (user+system) of a process, from /proc/<pid>/stat, plus those
 * of its reaped children with `withChildren`; 0 if unreadable.
 */
export function ticksOf(pid, withChildren = false) {
  const rest = statFields(pid);
  if (!rest) return 0;
  const own = Number(rest[11]) + Number(rest[12]);
  return withChildren ? own + Number(rest[13]) + Number(rest[14]) : own;
}

/** Busy and steal ticks of the whole machine, plus the ticks of `pids`, now (for {@link foreignLoad}). */
export function cpuSnapshot(pids) {
  let busy = 0;
  let steal = 0;
  try {
    const f = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const [user, nice, system, , , irq, softirq, st] = f;
    busy = user + nice + system + irq + softirq;
    steal = st ?? 0;
  } catch {
    /* no /proc: figures stay 0 */
  }
  return {
    at: process.hrtime.bigint(),
    busy,
    steal,
    ours: pids.reduce((a, p) => a + ticksOf(p), 0),
  };
}

/**
 * CPUs used by processes other than `pids` (and steal) between two snapshots, in CPUs (0–nproc).
 * Assumes USER_HZ = 100, as on every mainstream Linux build.
 */
export function foreignLoad(a, b) {
  const seconds = Number(b.at - a.at) / 1e9;
  const hz = 100;
  return {
    otherCpus: Math.max(0, (b.busy - a.busy - (b.ours - a.ours)) / hz / seconds),
    stealCpus: (b.steal - a.steal) / hz / seconds,
  };
}

/** Size in bytes of `path` (0 when absent). */
export function sizeOf(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Removes a directory tree, ignoring errors. */
export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Median of numbers (mean of the two middle values for even counts). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Formats a number with thousands separators and `digits` decimals. */
export function fmt(x, digits = 0) {
  return Number.isFinite(x)
    ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '—';
}

/** Renders rows (arrays of strings) as a Markdown table; `align` is 'l' or 'r' per column. */
export function table(header, rows, align) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const cell = (v, i) =>
    align[i] === 'r' ? String(v).padStart(widths[i]) : String(v).padEnd(widths[i]);
  const line = (r) => `| ${r.map(cell).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (align[i] === 'r' ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/**
 * Task rows by state in the project's SQLite store (table name from the build, default a2a_tasks).
 * Open it only after the server has stopped.
 */
export function sqliteFacts(path, root) {
  try {
    const Database = require('better-sqlite3');
    let tableName = 'a2a_tasks';
    try {
      tableName =
        require(join(root, 'dist/modules/tasks/tasks.constants.js')).TASKS_TABLE ?? tableName;
    } catch {
      /* default */
    }
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const byState = db
        .prepare(`SELECT status_state AS state, count(*) AS n FROM "${tableName}" GROUP BY 1`)
        .all();
      return {
        rows: byState.reduce((a, r) => a + r.n, 0),
        byState: Object.fromEntries(byState.map((r) => [r.state, r.n])),
      };
    } finally {
      db.close();
    }
  } catch (err) {
    return { error: err.message };
  }
}
