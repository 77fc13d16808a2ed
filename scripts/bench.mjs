// `npm run bench`: this server (NestJS on Fastify) against the SDK's own Express server, by the
// method of docs/a2a-sdk-on-fastify.md §10. Run after a build (npm run bench builds first).
// Targets, each a child process on 127.0.0.1: the SDK Express echo server (scripts/bench-express-server.mjs);
// ours with the Express reference's echo agent through the embedding API (scripts/bench-echo-server.mjs),
// SQLite durable and in memory (like for like); ours with the shortlist skill, SQLite and memory (as shipped);
// bare Fastify with fixed bytes (scripts/bench-fastify-floor.mjs), the HTTP floor. SQLite files in a temp dir.
// ours-pg / ours-pg2: the shortlist server on PostgreSQL, one instance / two on one database (one
// autocannon, its connections split evenly across both URLs), SendMessage endpoints only; the
// database comes from scripts/bench-pg.mjs (BENCH_DATABASE_URL, else a throwaway cluster, else skipped).
// Env: BENCH_ROUNDS (3), BENCH_DURATION_S (10), BENCH_CONNECTIONS (10), BENCH_WARMUP_S (2),
// BENCH_PIN (1; 0 disables taskset), BENCH_SERVER_CPU (0), BENCH_CLIENT_CPU (1),
// BENCH_TARGETS (comma-separated target ids; default all; express is always kept), BENCH_DATABASE_URL,
// BENCH_ENDPOINTS (comma-separated endpoint ids: card, jsonrpc, rest; default all),
// BENCH_MAX_STEAL (0.1 CPUs) and BENCH_STEAL_REPEATS (2): a measured run with more steal is repeated,
// at most that many times (0: never); the runs dropped are printed, marked, and not counted.
// Ours runs as an anonymous caller with every rate limit set to 0 (off); inherited SUPERQODE_A2A_* are dropped.
// Besides req/s it reports server CPU time per request (/proc ticks) and the CPU used by other
// processes during each run: on a shared machine the CPU/req ratio is the steadier comparison.
// Writes bench-results/latest.json. Dev tool, not a test.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  HOST,
  cpuSnapshot,
  fmt,
  foreignLoad,
  freePorts,
  hasTaskset,
  median,
  memoryOf,
  onExit,
  pinSelf,
  removeDir,
  sizeOf,
  sqliteFacts,
  startChild,
  stopChild,
  ticksOf,
  waitReady,
} from './bench-lib.mjs';
import { report, writesPerSend } from './bench-report.mjs';
import { benchPostgres } from './bench-pg.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A number setting: `dflt` when unset or blank. @throws when not a finite number ≥ min (an integer if asked). */
function numberEnv(name, dflt, { min = 0, integer = false } = {}) {
  const raw = process.env[name];
  const v = raw === undefined || raw === '' ? dflt : Number(raw);
  if (!Number.isFinite(v) || v < min || (integer && !Number.isInteger(v)))
    throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min} (got ${raw})`);
  return v;
}
const intEnv = (name, dflt, min = 1) => numberEnv(name, dflt, { min, integer: true });
const cfg = {
  rounds: intEnv('BENCH_ROUNDS', 3),
  durationS: intEnv('BENCH_DURATION_S', 10),
  connections: intEnv('BENCH_CONNECTIONS', 10),
  warmupS: intEnv('BENCH_WARMUP_S', 2, 0),
  // A measured run with more steal than this (CPUs taken by other guests) is repeated, at most
  // stealRepeats times; the last one is kept whatever its steal (its line shows it).
  maxSteal: numberEnv('BENCH_MAX_STEAL', 0.1),
  stealRepeats: intEnv('BENCH_STEAL_REPEATS', 2, 0),
  serverCpu: intEnv('BENCH_SERVER_CPU', 0, 0),
  clientCpu: intEnv('BENCH_CLIENT_CPU', 1, 0),
};
const pin = process.env.BENCH_PIN !== '0' && hasTaskset() && cpus().length >= 2;

const MESSAGE = {
  messageId: '6f1c2a9e-4b7d-4e21-9a3c-5d8e0f1b2c3d',
  role: 'ROLE_USER',
  parts: [{ text: 'which harness for rust' }],
};
const HEADERS = { 'a2a-version': '1.0' };
const POST_HEADERS = { ...HEADERS, 'content-type': 'application/json' };
const completed = (body) => body.includes('"TASK_STATE_COMPLETED"');
/** Same fixed body every time: the server accepts a repeated messageId (each send makes a new task). */
const ALL_ENDPOINTS = [
  {
    id: 'card',
    label: 'card GET',
    method: 'GET',
    path: '/.well-known/agent-card.json',
    headers: HEADERS,
    verify: (b) => b.startsWith('{') && b.includes('"supportedInterfaces"'),
  },
  {
    id: 'jsonrpc',
    label: 'JSON-RPC SendMessage',
    method: 'POST',
    path: '/',
    headers: POST_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: MESSAGE },
    }),
    verify: (b) => b.startsWith('{"jsonrpc":"2.0","id":1,"result":{"task":') && completed(b),
  },
  {
    id: 'rest',
    label: 'REST message:send',
    method: 'POST',
    path: '/message:send',
    headers: POST_HEADERS,
    body: JSON.stringify({ message: MESSAGE }),
    verify: (b) => b.startsWith('{"task":') && completed(b),
  },
];
/** The ids a comma-separated BENCH_* variable names; undefined when unset or blank (all). */
function idList(name) {
  const ids = (process.env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return ids.length ? ids : undefined;
}

/** The endpoints measured: those BENCH_ENDPOINTS names (comma-separated ids), else all. */
const ENDPOINTS = (() => {
  const wanted = idList('BENCH_ENDPOINTS');
  if (!wanted) return ALL_ENDPOINTS;
  const unknown = wanted.filter((id) => !ALL_ENDPOINTS.some((ep) => ep.id === id));
  if (unknown.length)
    throw new Error(`BENCH_ENDPOINTS: unknown ${unknown.join(', ')} (card, jsonrpc, rest)`);
  return ALL_ENDPOINTS.filter((ep) => wanted.includes(ep.id));
})();
/** Ratio targets of issue #14 (express ÷ ours server CPU per request), per endpoint and target. */
const GOALS = {
  card: { 'ours-sqlite': 4, 'ours-memory': 4, 'echo-sqlite': 4, 'echo-memory': 4 },
  jsonrpc: { 'echo-sqlite': 2, 'echo-memory': 3, 'ours-sqlite': 1.5 },
  rest: { 'ours-sqlite': 1.5 },
};
const OURS = ['echo-sqlite', 'echo-memory', 'ours-sqlite', 'ours-memory'];
/** Targets on PostgreSQL: the card does not touch the store, so only the SendMessage endpoints. */
const PG_TARGETS = ['ours-pg', 'ours-pg2'];
const PG_ENDPOINTS = ['jsonrpc', 'rest'];
const endpointsOf = (t) => ENDPOINTS.filter((ep) => !t.only || t.only.includes(ep.id));
const targetsOf = (ep, targets) => targets.filter((t) => endpointsOf(t).includes(ep));

/** Target ids named by BENCH_TARGETS, or undefined (all). @throws on an id that is no target. */
function wantedTargets() {
  const wanted = idList('BENCH_TARGETS');
  const known = ['express', ...OURS, 'fastify', ...PG_TARGETS];
  const unknown = (wanted ?? []).filter((id) => !known.includes(id));
  if (unknown.length)
    throw new Error(`BENCH_TARGETS: unknown ${unknown.join(', ')} (${known.join(', ')})`);
  return wanted;
}

function targetsFor(tmp, ports, pg) {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('SUPERQODE_A2A_')),
  );
  const oursEnv = (port, extra) => ({
    ...base,
    SUPERQODE_A2A_HOST: HOST,
    SUPERQODE_A2A_PORT: String(port),
    SUPERQODE_A2A_LOG_LEVEL: 'warn',
    // Anonymous callers, rate limits off (0 = no limit): the guards still run, they just never trip.
    SUPERQODE_A2A_ALLOW_ANONYMOUS: 'true',
    SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: '0',
    SUPERQODE_A2A_KEYED_PER_MINUTE: '0',
    SUPERQODE_A2A_GLOBAL_PER_DAY: '0',
    SUPERQODE_A2A_HARNESS_STORE_PATH: ':memory:',
    ...extra,
  });
  const ours = (port, extra) => ({
    cmd: process.execPath,
    args: [join(root, 'dist/main.js')],
    health: '/health',
    env: oursEnv(port, extra),
  });
  const echo = (port, store) => ({
    cmd: process.execPath,
    args: [join(root, 'scripts/bench-echo-server.mjs'), String(port), store],
    health: '/health',
    // Only the echo skill: the built-in shortlist and harness skills are off, as the Express reference serves one skill.
    env: oursEnv(port, {
      SUPERQODE_A2A_SHORTLIST_ENABLED: 'false',
      SUPERQODE_A2A_HARNESS_ENABLED: 'false',
    }),
  });
  const sqlitePath = join(tmp, 'tasks.sqlite3');
  const echoSqlitePath = join(tmp, 'echo-tasks.sqlite3');
  const all = [
    {
      id: 'express',
      label: 'SDK Express echo',
      port: ports[0],
      cmd: process.execPath,
      args: [join(root, 'scripts/bench-express-server.mjs'), String(ports[0])],
      health: '/health',
      env: base,
    },
    {
      id: 'echo-sqlite',
      label: 'ours echo, SQLite',
      port: ports[1],
      sqlitePath: echoSqlitePath,
      ...echo(ports[1], echoSqlitePath),
    },
    { id: 'echo-memory', label: 'ours echo, memory', port: ports[2], ...echo(ports[2], 'memory') },
    {
      id: 'ours-sqlite',
      label: 'ours shortlist, SQLite',
      port: ports[3],
      sqlitePath,
      ...ours(ports[3], { SUPERQODE_A2A_TASK_STORE_PATH: sqlitePath }),
    },
    {
      id: 'ours-memory',
      label: 'ours shortlist, memory',
      port: ports[4],
      ...ours(ports[4], { SUPERQODE_A2A_TASK_STORE_ENABLED: 'false' }),
    },
    // Started after the others: it copies the card of a running server of ours.
    {
      id: 'fastify',
      label: 'bare Fastify floor',
      port: ports[5],
      cmd: process.execPath,
      after: true,
      args: [join(root, 'scripts/bench-fastify-floor.mjs'), String(ports[5])],
      health: '/health',
      env: {
        ...base,
        BENCH_FLOOR_CARD_URL: `http://${HOST}:${ports[4]}/.well-known/agent-card.json`,
      },
    },
  ];
  if (pg?.urls) {
    const onPg = (url) => ({ SUPERQODE_A2A_DATABASE_URL: url, SUPERQODE_A2A_MIGRATE: 'true' });
    const pg2 = onPg(pg.urls['ours-pg2']);
    all.push(
      {
        id: 'ours-pg',
        label: 'ours shortlist, PostgreSQL',
        port: ports[6],
        only: PG_ENDPOINTS,
        ...ours(ports[6], onPg(pg.urls['ours-pg'])),
      },
      {
        id: 'ours-pg2',
        label: 'ours shortlist, 2 instances, one PostgreSQL',
        port: ports[7],
        only: PG_ENDPOINTS,
        ...ours(ports[7], pg2),
        second: { port: ports[8], ...ours(ports[8], pg2) },
      },
    );
  }
  const wanted = wantedTargets();
  const picked = wanted ? all.filter((t) => t.id === 'express' || wanted.includes(t.id)) : all;
  if (picked.some((t) => t.id === 'fastify') && !picked.some((t) => t.id === 'ours-memory')) {
    throw new Error('BENCH_TARGETS: fastify needs ours-memory (it copies its card)');
  }
  return picked;
}

/** Pids whose CPU counts as ours: this process and the servers (set once they start). */
const ourPids = [process.pid];
/** CPU ticks of the PostgreSQL cluster so far (null: none, or not ours to measure). */
let dbTicks = () => null;

/** One autocannon run against a target's endpoint; returns the figures kept, with foreign CPU load. */
async function load(target, ep, seconds) {
  const urls = target.ports.map((port) => `http://${HOST}:${port}${ep.path}`);
  for (const url of urls)
    if (!url.startsWith(`http://${HOST}:`)) throw new Error(`refusing non-loopback URL ${url}`);
  const serverTicksNow = () => target.pids.reduce((a, pid) => a + ticksOf(pid), 0);
  const before = cpuSnapshot(ourPids);
  const dbBefore = target.only ? dbTicks() : null;
  const serverTicks = serverTicksNow();
  // Several URLs: autocannon opens connection i to urls[i % n], so the connections split evenly.
  const r = await autocannon({
    url: urls.length === 1 ? urls[0] : urls,
    method: ep.method,
    headers: ep.headers,
    body: ep.body,
    connections: cfg.connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    verifyBody: ep.verify,
  });
  const after = cpuSnapshot(ourPids);
  const dbSpent = dbBefore === null ? null : dbTicks() - dbBefore;
  // The database's CPU is ours too (it serves this target), not other processes' load.
  if (dbSpent !== null) after.ours += dbSpent;
  const { otherCpus, stealCpus } = foreignLoad(before, after);
  // Server CPU per request (every instance of the target): robust to other processes' load,
  // unlike req/s (10 ms tick resolution).
  const perReq = (t) => (t * 10_000) / Math.max(1, r.requests.total);
  const cpuUsPerReq = perReq(serverTicksNow() - serverTicks);
  return {
    otherCpus,
    stealCpus,
    cpuUsPerReq,
    dbCpuUsPerReq: dbSpent === null ? null : perReq(dbSpent),
    rps: r.requests.average,
    total: r.requests.total,
    ok2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    mismatches: r.mismatches,
    p50: r.latency.p50,
    p99: r.latency.p99,
    statusCodes: Object.fromEntries(
      Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count]),
    ),
  };
}

/** One request per target and endpoint before loading: must be 2xx with the expected body. */
async function precheck(targets) {
  const sizes = {};
  for (const t of targets)
    for (const ep of endpointsOf(t))
      for (const port of t.ports) {
        const res = await fetch(`http://${HOST}:${port}${ep.path}`, {
          method: ep.method,
          headers: ep.headers,
          body: ep.body,
        });
        const body = await res.text();
        if (!res.ok || !ep.verify(body))
          throw new Error(`precheck ${t.id} ${ep.id}: HTTP ${res.status} ${body.slice(0, 300)}`);
        sizes[`${t.id}/${ep.id}`] = Buffer.byteLength(body);
      }
  return sizes;
}

async function measure(all) {
  const runs = [];
  const combos = ENDPOINTS.reduce((a, ep) => a + targetsOf(ep, all).length, 0);
  const total = combos * (cfg.rounds + (cfg.warmupS > 0 ? 1 : 0));
  let n = 0;
  const note = (ep, t, phase, m, dropped) => {
    // A dropped run shows the number of the run that replaces it.
    const at = dropped ? n + 1 : ++n;
    const bad = m.non2xx + m.errors + m.timeouts + m.mismatches;
    console.error(
      `[${String(at).padStart(String(total).length)}/${total}] ${ep.id.padEnd(7)} ${t.id.padEnd(11)} ${phase.padEnd(8)} ` +
        `${fmt(m.rps).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  server CPU ${fmt(m.cpuUsPerReq)} µs/req${m.dbCpuUsPerReq === null ? '' : `  DB CPU ${fmt(m.dbCpuUsPerReq)} µs/req`}  other CPU ${fmt(m.otherCpus, 2)} steal ${fmt(m.stealCpus, 2)}${bad ? `  BAD ${JSON.stringify(m.statusCodes)} err ${m.errors} to ${m.timeouts} mismatch ${m.mismatches}` : ''}${dropped ? `  ${dropped}` : ''}`,
    );
  };
  for (const ep of ENDPOINTS) {
    const targets = targetsOf(ep, all);
    if (cfg.warmupS > 0)
      for (const t of targets) {
        const m = await load(t, ep, cfg.warmupS);
        runs.push({ endpoint: ep.id, target: t.id, round: 0, warmup: true, ...m });
        note(ep, t, 'warm-up', m);
      }
    for (let round = 1; round <= cfg.rounds; round++) {
      const k = (round - 1) % targets.length;
      for (const t of [...targets.slice(k), ...targets.slice(0, k)]) {
        let m = await load(t, ep, cfg.durationS);
        // A run during which the hypervisor ran other guests on our CPUs measured them too: repeat it.
        let repeats = 0;
        while (m.stealCpus > cfg.maxSteal && repeats < cfg.stealRepeats) {
          note(ep, t, `round ${round}`, m, `disturbed (steal > ${cfg.maxSteal}): repeated`);
          repeats += 1;
          m = await load(t, ep, cfg.durationS);
        }
        runs.push({ endpoint: ep.id, target: t.id, round, warmup: false, repeats, ...m });
        note(ep, t, `round ${round}`, m);
      }
    }
  }
  return runs;
}

/** Median DB CPU µs/req of runs, or null when not measured (not a PG target, or not our cluster). */
function dbMedian(ms) {
  const xs = ms.map((r) => r.dbCpuUsPerReq).filter((v) => v !== null);
  return xs.length ? median(xs) : null;
}

function summarise(runs, targets) {
  const rows = [];
  for (const ep of ENDPOINTS)
    for (const t of targetsOf(ep, targets)) {
      const ms = runs.filter((r) => r.endpoint === ep.id && r.target === t.id && !r.warmup);
      const all = runs.filter((r) => r.endpoint === ep.id && r.target === t.id);
      const sum = (k) => all.reduce((a, r) => a + r[k], 0);
      rows.push({
        endpoint: ep.id,
        target: t.id,
        rpsMedian: median(ms.map((r) => r.rps)),
        rpsMin: Math.min(...ms.map((r) => r.rps)),
        rpsMax: Math.max(...ms.map((r) => r.rps)),
        p50Median: median(ms.map((r) => r.p50)),
        p99Median: median(ms.map((r) => r.p99)),
        p99Max: Math.max(...ms.map((r) => r.p99)),
        cpuUsPerReqMedian: median(ms.map((r) => r.cpuUsPerReq)),
        dbCpuUsPerReqMedian: dbMedian(ms),
        otherCpusMedian: median(ms.map((r) => r.otherCpus)),
        otherCpusMax: Math.max(...ms.map((r) => r.otherCpus)),
        non2xx: sum('non2xx'),
        errors: sum('errors'),
        timeouts: sum('timeouts'),
        mismatches: sum('mismatches'),
        ok2xx: sum('ok2xx'),
      });
    }
  const ratios = [];
  for (const ep of ENDPOINTS)
    for (const { id } of targetsOf(ep, targets).filter((t) => t.id !== 'express')) {
      const get = (tid) => rows.find((r) => r.endpoint === ep.id && r.target === tid);
      const perRound = [];
      const cpuRatio = [];
      for (let round = 1; round <= cfg.rounds; round++) {
        const run = (tid) =>
          runs.find(
            (r) => r.endpoint === ep.id && r.target === tid && r.round === round && !r.warmup,
          );
        perRound.push(run(id).rps / run('express').rps);
        cpuRatio.push(run('express').cpuUsPerReq / run(id).cpuUsPerReq);
      }
      ratios.push({
        endpoint: ep.id,
        target: id,
        ofMedians: get(id).rpsMedian / get('express').rpsMedian,
        perRoundMedian: median(perRound),
        perRoundMin: Math.min(...perRound),
        perRoundMax: Math.max(...perRound),
        cpuRatioMedian: median(cpuRatio),
        cpuRatioMin: Math.min(...cpuRatio),
        cpuRatioMax: Math.max(...cpuRatio),
        goal: GOALS[ep.id]?.[id] ?? null,
      });
    }
  // Measured runs repeated because of steal (BENCH_MAX_STEAL), over the whole bench.
  const repeated = runs.reduce((a, r) => a + (r.repeats ?? 0), 0);
  return { rows, ratios, repeated };
}

async function main() {
  if (!existsSync(join(root, 'dist/main.js')))
    throw new Error('dist/main.js missing: run `npm run build` (npm run bench does)');
  const started = Date.now();
  const tmp = mkdtempSync(join(tmpdir(), 'superqode-bench-'));
  onExit(() => removeDir(tmp));
  const wanted = wantedTargets();
  let pg = null;
  if (PG_TARGETS.some((id) => !wanted || wanted.includes(id))) {
    pg = await benchPostgres({ root, cpu: pin ? cfg.serverCpu : undefined, names: PG_TARGETS });
    if (pg.skip) console.log(`PostgreSQL targets (${PG_TARGETS.join(', ')}) skipped: ${pg.skip}.`);
    else dbTicks = pg.ticks;
  }
  const targets = targetsFor(tmp, await freePorts(9), pg);
  for (const t of targets) t.ports = t.second ? [t.port, t.second.port] : [t.port];
  const perCombo = cfg.warmupS + cfg.rounds * cfg.durationS;
  const combos = ENDPOINTS.reduce((a, ep) => a + targetsOf(ep, targets).length, 0);
  const estimate = combos * perCombo + 30;
  console.log(
    `bench: ${targets.length} targets, ${combos} target × endpoint pairs (PG targets: SendMessage only) × (${cfg.warmupS} s warm-up + ${cfg.rounds} rounds × ${cfg.durationS} s), ` +
      `${cfg.connections} connections, loopback ${HOST} only. Expected total ≈ ${Math.floor(estimate / 60)} min ${estimate % 60} s.`,
  );
  if (pin) pinSelf(cfg.clientCpu);
  console.log(
    pin
      ? `Pinning: servers on CPU ${cfg.serverCpu} (taskset -c), autocannon (this process) on CPU ${cfg.clientCpu}.`
      : 'Pinning: OFF (no taskset, fewer than 2 CPUs or BENCH_PIN=0): client and servers share CPUs; figures are noisier.',
  );
  if (pg?.where) console.log(`PostgreSQL: ${pg.where}; a fresh database per PG target.`);
  // One server per target; two for ours-pg2 (`second`, instance 2).
  const start = (t, c = t, instance = 1) => ({
    id: t.id,
    instance,
    port: c.port,
    ...startChild(instance > 1 ? `${t.id}#${instance}` : t.id, c.cmd, c.args, {
      env: c.env,
      cwd: root,
      cpu: pin ? cfg.serverCpu : undefined,
    }),
  });
  const startAll = (t) => [start(t), ...(t.second ? [start(t, t.second, 2)] : [])];
  // Several servers start at once on one pinned CPU: allow a slow start on a loaded machine.
  const ready = (s, t) => waitReady(s, `http://${HOST}:${s.port}${t.health}`, 120_000);
  const servers = [];
  for (const phase of [false, true]) {
    const batch = targets.filter((t) => Boolean(t.after) === phase);
    const started = batch.flatMap((t) => startAll(t).map((s) => ({ s, t })));
    servers.push(...started.map(({ s }) => s));
    await Promise.all(started.map(({ s, t }) => ready(s, t)));
  }
  const order = (s) => targets.findIndex((t) => t.id === s.id) * 10 + s.instance;
  servers.sort((a, b) => order(a) - order(b));
  ourPids.push(...servers.map((s) => s.pid));
  for (const t of targets) t.pids = servers.filter((s) => s.id === t.id).map((s) => s.pid);
  const sizes = await precheck(targets);
  const writes = await writesPerSend(
    targets,
    ENDPOINTS.filter((e) => e.id !== 'card'),
  );
  const before = Object.fromEntries(
    targets
      .filter((t) => t.sqlitePath)
      .map((t) => [t.id, sqliteFacts(t.sqlitePath, root).rows ?? 0]),
  );
  const runs = await measure(targets);
  for (const s of servers) s.mem = memoryOf(s.pid);
  const sqlite = {};
  for (const t of targets.filter((x) => x.sqlitePath))
    sqlite[t.id] = { dbBytes: sizeOf(t.sqlitePath), walBytes: sizeOf(`${t.sqlitePath}-wal`) };
  await Promise.all(servers.map((s) => stopChild(s)));
  for (const t of targets.filter((x) => x.sqlitePath)) {
    const sends = runs
      .filter((r) => r.target === t.id && r.endpoint !== 'card')
      .reduce((a, r) => a + r.ok2xx, 0);
    Object.assign(sqlite[t.id], sqliteFacts(t.sqlitePath, root), {
      rowsBefore: before[t.id],
      counted2xx: sends,
      writesPerSend: writes[t.id],
    });
  }
  const summary = summarise(runs, targets);
  report(summary, {
    cfg,
    pin,
    targets,
    endpoints: ENDPOINTS,
    goals: GOALS,
    servers,
    sizes,
    sqlite,
    pgWhere: pg?.where,
  });
  const elapsedS = Math.round((Date.now() - started) / 1000);
  console.log(`\nTotal ${Math.floor(elapsedS / 60)} min ${elapsedS % 60} s.`);
  const out = join(root, 'bench-results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'latest.json'),
    JSON.stringify(
      {
        finishedAt: new Date().toISOString(),
        elapsedS,
        config: { ...cfg, pinned: pin },
        machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model },
        targets: targets.map(({ id, label }) => ({ id, label })),
        postgres: pg ? (pg.where ?? `skipped: ${pg.skip}`) : null,
        endpoints: ENDPOINTS.map(({ id, label, method, path }) => ({ id, label, method, path })),
        responseBytes: sizes,
        ...summary,
        runs,
        servers: servers.map((s) => ({
          id: s.id,
          instance: s.instance,
          pid: s.pid,
          ...s.mem,
          output: s.lines,
        })),
        sqlite,
      },
      null,
      2,
    ),
  );
  console.log(`JSON copy: ${join('bench-results', 'latest.json')}`);
}

main().catch((err) => {
  console.error(`bench failed: ${err.stack ?? err}`);
  process.exit(1);
});
