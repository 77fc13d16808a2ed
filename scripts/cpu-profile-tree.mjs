// Text flame graph of a V8 CPU profile (`node --cpu-prof`): the call tree top-down with each
// frame's inclusive share of non-idle samples, frames under MIN_PCT (default 1.5) folded away,
// plus the heaviest self-time frames. Used for docs/performance.md. Dev tool, not a test.
// Usage: node scripts/cpu-profile-tree.mjs PROFILE.cpuprofile [skipSeconds] [minPct]
import { readFileSync } from 'node:fs';

const [file, skipArg = '0', minArg = '1.5'] = process.argv.slice(2);
if (!file) throw new Error('usage: cpu-profile-tree.mjs PROFILE.cpuprofile [skipSeconds] [minPct]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const skipUs = Number(skipArg) * 1e6;
const minPct = Number(minArg);
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
let t = 0;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i];
  if (t < skipUs || nodes.get(id).callFrame.functionName === '(idle)') return;
  self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i]);
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const inclusive = new Map();
const incl = (id) => {
  if (inclusive.has(id)) return inclusive.get(id);
  const n = nodes.get(id);
  const v = (self.get(id) ?? 0) + (n.children ?? []).reduce((a, c) => a + incl(c), 0);
  inclusive.set(id, v);
  return v;
};
const where = (cf) => {
  const url = cf.url.replace(/^file:\/\//, '');
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/);
  const place = pkg
    ? `${pkg[1]}/${pkg[2].split('/').pop()}`
    : url.includes('/dist/')
      ? `ours ${url.split('/dist/')[1]}`
      : url.split('/').pop() || '(native)';
  return `${cf.functionName || '(anonymous)'} [${place}:${cf.lineNumber + 1}]`;
};
const pct = (v) => `${((100 * v) / total).toFixed(1).padStart(5)}%`;
const lines = [];
const walk = (id, depth, print) => {
  const n = nodes.get(id);
  const kids = (n.children ?? [])
    .filter((c) => (100 * incl(c)) / total >= minPct)
    .sort((a, b) => incl(b) - incl(a));
  if (print) lines.push(`${pct(incl(id))} ${'  '.repeat(depth - 1)}${where(n.callFrame)}`);
  // A chain of single heavy children (framework plumbing) is folded: only where it branches,
  // or loses more than 3% of its time, is a frame printed.
  const chain = kids.length === 1 && depth > 0 && incl(kids[0]) / incl(id) > 0.97;
  for (const c of kids)
    walk(
      c,
      chain ? depth : depth + 1,
      !chain ||
        (nodes.get(c).children ?? []).filter((x) => (100 * incl(x)) / total >= minPct).length !== 1,
    );
};
walk(profile.nodes[0].id, 0, false);
console.log(`non-idle samples: ${(total / 1000).toFixed(0)} ms; frames ≥ ${minPct}% inclusive\n`);
console.log(lines.join('\n'));
const bySelf = new Map();
for (const [id, v] of self) {
  const k = where(nodes.get(id).callFrame);
  bySelf.set(k, (bySelf.get(k) ?? 0) + v);
}
console.log('\nself time, top 20:');
for (const [k, v] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`${pct(v)} ${k}`);

/** Self time by layer of the stack (where a frame's code lives). */
const layerOf = (cf) => {
  const url = cf.url;
  if (cf.functionName === '(garbage collector)') return 'V8 garbage collector';
  if (cf.functionName === 'sqliteTransaction' || url.includes('better-sqlite3'))
    return 'SQLite (better-sqlite3 + its transaction)';
  if (
    /node_modules\/(fastify|find-my-way|@fastify|avvio|light-my-request|fast-json-stringify|secure-json-parse)\//.test(
      url,
    )
  )
    return 'Fastify';
  if (
    /node_modules\/@nestjs\/(throttler|passport)\//.test(url) ||
    /node_modules\/passport/.test(url)
  )
    return 'passport + throttler';
  if (/node_modules\/@nestjs\//.test(url) || /node_modules\/(rxjs|reflect-metadata)\//.test(url))
    return 'Nest (router, guards plumbing, rxjs)';
  if (url.includes('node_modules/@a2a-js/sdk')) return 'A2A SDK (transport handler, types)';
  const ours = url.includes('node_modules') ? undefined : url.split('/dist/')[1];
  if (ours) {
    const area = ours.split('/').slice(0, 2).join('/');
    return `ours: ${area.startsWith('modules/') ? area : ours.split('/')[0]}`;
  }
  if (/bench-/.test(url)) return 'bench agent';
  if (url.includes('node_modules')) return 'other packages';
  if (
    url.startsWith('node:') ||
    cf.functionName === 'writev' ||
    cf.functionName === 'writeUtf8String' ||
    cf.functionName === 'writeBuffer'
  )
    return 'Node core (http, net, streams, timers)';
  return 'other native / VM';
};
const byLayer = new Map();
for (const [id, v] of self) {
  const k = layerOf(nodes.get(id).callFrame);
  byLayer.set(k, (byLayer.get(k) ?? 0) + v);
}
console.log('\nself time by layer:');
for (const [k, v] of [...byLayer].sort((a, b) => b[1] - a[1])) console.log(`${pct(v)} ${k}`);
