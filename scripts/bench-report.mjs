// Report of scripts/bench.mjs: result tables, the issue #14 target rows (met / not met), server
// memory, SQLite rows, and row writes per SendMessage (counted by triggers). Dev tool, not a test.
import { createRequire } from 'node:module';
import { HOST, fmt, table } from './bench-lib.mjs';
import { pgReport } from './bench-pg-report.mjs';

const require = createRequire(import.meta.url);
const TABLE = 'a2a_tasks';
const SAMPLE = 20;

/**
 * Row writes (inserts + updates of the task table) per SendMessage of each SQLite target, counted
 * by temporary triggers over {@link SAMPLE} sequential requests per endpoint; triggers are removed
 * before the measured runs. Returns target id → writes per request.
 */
export async function writesPerSend(targets, sendEndpoints) {
  const Database = require('better-sqlite3');
  const out = {};
  for (const t of targets.filter((x) => x.sqlitePath)) {
    const db = new Database(t.sqlitePath, { timeout: 5000 });
    db.exec(`CREATE TABLE IF NOT EXISTS bench_writes (n INTEGER NOT NULL); DELETE FROM bench_writes; INSERT INTO bench_writes VALUES (0);
      CREATE TRIGGER bench_ins AFTER INSERT ON "${TABLE}" BEGIN UPDATE bench_writes SET n = n + 1; END;
      CREATE TRIGGER bench_upd AFTER UPDATE ON "${TABLE}" BEGIN UPDATE bench_writes SET n = n + 1; END;`);
    try {
      for (const ep of sendEndpoints)
        for (let i = 0; i < SAMPLE; i++) {
          const res = await fetch(`http://${HOST}:${t.port}${ep.path}`, {
            method: ep.method,
            headers: ep.headers,
            body: ep.body,
          });
          await res.text();
        }
      out[t.id] =
        db.prepare('SELECT n FROM bench_writes').get().n / (SAMPLE * sendEndpoints.length);
    } finally {
      db.exec('DROP TRIGGER bench_ins; DROP TRIGGER bench_upd; DROP TABLE bench_writes;');
      db.close();
    }
  }
  return out;
}

/** The target rows of issue #14, judged on server CPU µs per request (express ÷ ours). */
function targetRows({ rows, ratios }, ctx) {
  const ratio = (ep, id) => ratios.find((r) => r.endpoint === ep && r.target === id);
  const row = (ep, id) => rows.find((r) => r.endpoint === ep && r.target === id);
  /** VmRSS when the run ended (`rssMiB`) or VmHWM, the peak (`peakRssMiB`), of a target's first instance. */
  const mem = (id, key) => ctx.servers.find((s) => s.id === id)?.mem?.[key];
  const out = [];
  const cpuGoal = (what, ep, id, goal) => {
    const r = ratio(ep, id);
    if (r)
      out.push([
        what,
        `≥ ${goal}×`,
        `${fmt(r.cpuRatioMedian, 2)}× (rounds ${fmt(r.cpuRatioMin, 2)}–${fmt(r.cpuRatioMax, 2)}; req/s ${fmt(r.perRoundMedian, 2)}×)`,
        r.cpuRatioMedian >= goal,
      ]);
  };
  cpuGoal('JSON-RPC SendMessage, echo, SQLite durable', 'jsonrpc', 'echo-sqlite', 2);
  cpuGoal('JSON-RPC SendMessage, echo, memory', 'jsonrpc', 'echo-memory', 3);
  cpuGoal('JSON-RPC SendMessage, shortlist, SQLite durable', 'jsonrpc', 'ours-sqlite', 1.5);
  cpuGoal('REST SendMessage, shortlist, SQLite durable', 'rest', 'ours-sqlite', 1.5);
  cpuGoal('card GET (shortlist server)', 'card', 'ours-sqlite', 4);
  const floor = row('card', 'fastify');
  for (const id of ['ours-sqlite', 'echo-sqlite']) {
    const ours = row('card', id);
    if (floor && ours) {
      const over = ours.cpuUsPerReqMedian / floor.cpuUsPerReqMedian - 1;
      out.push([
        `card GET within 15% of bare Fastify (${id})`,
        '≤ +15%',
        `${over >= 0 ? '+' : ''}${fmt(over * 100, 0)}% (${fmt(ours.cpuUsPerReqMedian)} vs ${fmt(floor.cpuUsPerReqMedian)} µs)`,
        over <= 0.15,
      ]);
    }
  }
  const express = (ep) => row(ep, 'express');
  for (const id of ['echo-sqlite', 'echo-memory', 'ours-sqlite'])
    for (const ep of ['jsonrpc', 'rest']) {
      const ours = row(ep, id);
      if (ours)
        out.push([
          `p99 ${ep} SendMessage at ${ctx.cfg.connections} connections (${id})`,
          `≤ Express ${fmt(express(ep).p99Median)} ms`,
          `${fmt(ours.p99Median)} ms`,
          ours.p99Median <= express(ep).p99Median,
        ]);
    }
  const issue14 = (x) => !x.only && (x.id.startsWith('echo-') || x.id.startsWith('ours-'));
  // Judged on the peak: the RSS when a run ends depends on when each process last ran a major GC
  // (the same Express server read 75.8, 116.5 and 170.4 MiB there in three runs, its peak 185-190).
  const versus = (id, key) =>
    `${fmt(mem(id, key) / mem('express', key), 2)}× (${fmt(mem(id, key), 1)} vs ${fmt(mem('express', key), 1)} MiB)`;
  for (const t of ctx.targets.filter(issue14)) {
    const peak = mem(t.id, 'peakRssMiB') / mem('express', 'peakRssMiB');
    out.push([
      `RSS: peak, and after the run (${t.id})`,
      '≤ 1.2× Express, peak',
      `${versus(t.id, 'peakRssMiB')}; after the run ${versus(t.id, 'rssMiB')}`,
      peak <= 1.2,
    ]);
  }
  return out;
}

/** Prints every table of a bench run to stdout. */
export function report(summary, ctx) {
  const { cfg, pin, targets, endpoints, servers, sizes, sqlite } = ctx;
  const { rows, ratios, repeated } = summary;
  const label = (id) => targets.find((t) => t.id === id).label;
  const serverLabel = (s) => `${label(s.id)}${s.instance > 1 ? `, instance ${s.instance}` : ''}`;
  const epLabel = (id) => endpoints.find((e) => e.id === id).label;
  console.log(
    `\n## Results (${cfg.rounds} rounds × ${cfg.durationS} s, ${cfg.connections} connections${pin ? `, servers on CPU ${cfg.serverCpu}, autocannon on CPU ${cfg.clientCpu}` : ', NOT pinned'}; ${repeated} run(s) repeated for steal > ${cfg.maxSteal} CPUs)\n`,
  );
  console.log(
    table(
      [
        'endpoint',
        'target',
        'req/s median',
        'min–max',
        'p50 ms',
        'p99 ms median (max)',
        'non-2xx',
        'err/timeout/bad body',
        'resp bytes',
        'server CPU µs/req',
        'other CPU med (max)',
      ],
      rows.map((r) => [
        epLabel(r.endpoint),
        label(r.target),
        fmt(r.rpsMedian),
        `${fmt(r.rpsMin)}–${fmt(r.rpsMax)}`,
        fmt(r.p50Median, 1),
        `${fmt(r.p99Median, 1)} (${fmt(r.p99Max)})`,
        fmt(r.non2xx),
        `${r.errors}/${r.timeouts}/${r.mismatches}`,
        fmt(sizes[`${r.target}/${r.endpoint}`]),
        fmt(r.cpuUsPerReqMedian),
        `${fmt(r.otherCpusMedian, 2)} (${fmt(r.otherCpusMax, 2)})`,
      ]),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  const busiest = Math.max(...rows.map((r) => r.otherCpusMax));
  if (busiest > 0.1) {
    console.log(
      `\nWARNING: other processes used up to ${fmt(busiest, 2)} CPUs during measured runs ("other CPU", ` +
        'in CPUs of this machine): req/s is contaminated; server CPU µs/req and its ratios are the figures to trust.',
    );
  }
  console.log('\n## Ours ÷ SDK Express, per round\n');
  console.log(
    table(
      [
        'endpoint',
        'target',
        'req/s: ratio of medians',
        'req/s: per-round median (min–max)',
        'CPU/req: express ÷ ours, median (min–max)',
      ],
      ratios.map((r) => [
        epLabel(r.endpoint),
        label(r.target),
        `${fmt(r.ofMedians, 2)}×`,
        `${fmt(r.perRoundMedian, 2)}× (${fmt(r.perRoundMin, 2)}–${fmt(r.perRoundMax, 2)})`,
        `${fmt(r.cpuRatioMedian, 2)}× (${fmt(r.cpuRatioMin, 2)}–${fmt(r.cpuRatioMax, 2)})`,
      ]),
      ['l', 'l', 'r', 'r', 'r'],
    ),
  );
  console.log('\n## Targets of issue #14 (server CPU µs per request; RSS at its peak, VmHWM)\n');
  console.log(
    table(
      ['target', 'goal', 'measured', 'met?'],
      targetRows(summary, ctx).map(([what, goal, got, ok]) => [
        what,
        goal,
        got,
        ok ? 'met' : 'NOT met',
      ]),
      ['l', 'r', 'l', 'l'],
    ),
  );
  pgReport(summary, ctx);
  console.log('\n## Server memory after the run\n');
  console.log(
    table(
      ['target', 'pid', 'RSS MiB', 'peak RSS MiB'],
      servers.map((s) => [serverLabel(s), s.pid, fmt(s.mem?.rssMiB, 1), fmt(s.mem?.peakRssMiB, 1)]),
      ['l', 'r', 'r', 'r'],
    ),
  );
  const mib = (b) => fmt(b / 1048576, 1);
  console.log('\n## SQLite stores\n');
  console.log(
    table(
      [
        'target',
        'file + WAL MiB',
        'task rows',
        'new rows per 2xx SendMessage',
        'row writes per SendMessage (triggers, sequential)',
      ],
      Object.entries(sqlite).map(([id, s]) => [
        label(id),
        `${mib(s.dbBytes)} + ${mib(s.walBytes)}`,
        s.error ? `failed: ${s.error}` : `${fmt(s.rows)} ${JSON.stringify(s.byState)}`,
        s.error ? '—' : fmt((s.rows - s.rowsBefore) / Math.max(1, s.counted2xx), 3),
        fmt(s.writesPerSend, 2),
      ]),
      ['l', 'r', 'l', 'r', 'r'],
    ),
  );
  console.log(
    `(new rows may exceed the 2xx count by ≤ ${cfg.connections} per run: responses in flight at the end of a run are not counted)`,
  );
  for (const s of servers) {
    const extra = s.lines.filter((l) => !/listening on http/.test(l));
    if (extra.length)
      console.log(
        `\nOutput of ${serverLabel(s)} (${extra.length} lines, last 20):\n${extra.slice(-20).join('\n')}`,
      );
  }
}
