// The PostgreSQL rows of scripts/bench.mjs (issue #15): PostgreSQL vs SQLite on one instance, and
// two instances vs one on one PostgreSQL, per SendMessage endpoint. Dev tool, not a test.
import { fmt, table } from './bench-lib.mjs';

/** What each row compares: [label, target A, target B]; A ÷ B is printed. */
const PAIRS = [
  ['PostgreSQL ÷ SQLite, one instance', 'ours-pg', 'ours-sqlite'],
  ['2 instances ÷ 1, one PostgreSQL', 'ours-pg2', 'ours-pg'],
];

/**
 * Server + database CPU µs per request of a summary row: the servers' CPU (both instances for
 * ours-pg2) plus the PostgreSQL processes' (SQLite runs inside the server: 0 extra). Null when
 * the database's CPU was not measured (BENCH_DATABASE_URL).
 */
export function totalCpuUsPerReq(row) {
  if (row.dbCpuUsPerReqMedian === undefined || row.dbCpuUsPerReqMedian === null) {
    return row.target.endsWith('sqlite') ? row.cpuUsPerReqMedian : null;
  }
  return row.cpuUsPerReqMedian + row.dbCpuUsPerReqMedian;
}

/** Prints the PostgreSQL comparison table when the run had a PG target. */
export function pgReport({ rows }, { endpoints, pgWhere }) {
  const row = (ep, id) => rows.find((r) => r.endpoint === ep && r.target === id);
  const out = [];
  for (const [what, a, b] of PAIRS)
    for (const ep of endpoints.filter((e) => e.id !== 'card')) {
      const ra = row(ep.id, a);
      const rb = row(ep.id, b);
      if (!ra || !rb) continue;
      const pair = (f, digits = 0) => `${fmt(f(ra), digits)} / ${fmt(f(rb), digits)}`;
      const ratio = (x, y) => (x === null || y === null ? '—' : `${fmt(x / y, 2)}×`);
      const db = (r) => r.dbCpuUsPerReqMedian ?? (r.target.endsWith('sqlite') ? 0 : NaN);
      out.push([
        what,
        ep.label,
        `${pair((r) => r.rpsMedian)} (${ratio(ra.rpsMedian, rb.rpsMedian)})`,
        pair((r) => r.p50Median, 1),
        pair((r) => r.p99Median, 1),
        pair((r) => r.cpuUsPerReqMedian),
        pair(db),
        `${pair((r) => totalCpuUsPerReq(r) ?? NaN)} (${ratio(totalCpuUsPerReq(ra), totalCpuUsPerReq(rb))})`,
      ]);
    }
  if (out.length === 0) return;
  console.log(`\n## PostgreSQL (issue #15): A / B (A ÷ B), medians\n\nDatabase: ${pgWhere}.\n`);
  console.log(
    table(
      [
        'A ÷ B',
        'endpoint',
        'req/s',
        'p50 ms',
        'p99 ms',
        'server CPU µs/req',
        'DB CPU µs/req',
        'server + DB µs/req',
      ],
      out,
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  console.log(
    '(server CPU: every instance of the target over all its requests; DB CPU: the PostgreSQL ' +
      'processes during the run, 0 for SQLite, which runs inside the server; ours-pg2 is one ' +
      'autocannon with its connections split evenly across both instances)',
  );
}
