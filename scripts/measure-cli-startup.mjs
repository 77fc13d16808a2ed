#!/usr/bin/env node
// Times `superqode` command lines (dist/cli.js, built by `npx tsc -p tsconfig.build.json`):
// median and min wall time of N runs each, in ms, and the median CPU time (user + system) of a
// run in ms, read from GNU time (`/usr/bin/time -f "%e %U %S"`) when it is installed.
// Usage: node scripts/measure-cli-startup.mjs [runs=11] [path/to/cli.js]
// A script, not a test: timings depend on the machine's load (issue #13: --version/--help
// < 300 ms; one CLI container per command line). Runs in a temporary HOME and working directory
// so `a2a list` and `a2a-keys status` read no real configuration.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.argv[3] ?? join(root, 'dist', 'cli.js');
const runs = Number(process.argv[2] ?? 11);
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const spec = join(root, 'examples', 'harness', 'coding.yaml');
const cases = [
  ['--version'],
  ['--help'],
  ['serve', 'a2a', '--help'],
  ['a2a', 'list'],
  ['a2a-keys', 'secret'],
  ['a2a-keys', 'status'],
  ['harness', 'validate', spec],
  ['node -e 0 (baseline)'],
];

const home = mkdtempSync(join(tmpdir(), 'sq-measure-'));
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/API_KEY$/.test(k) && !k.startsWith('SUPERQODE_')),
);
Object.assign(env, { HOME: home, XDG_CONFIG_HOME: join(home, '.config') });

/** Runs one command line; returns its wall time and (with GNU time) CPU time, in ms. */
function runOnce(args) {
  const baseline = args[0].startsWith('node -e');
  const argv = baseline ? [process.execPath, '-e', '0'] : [process.execPath, cli, ...args];
  const command = gnuTime ? [gnuTime, '-f', '@cpu %U %S', ...argv] : argv;
  const start = process.hrtime.bigint();
  const r = spawnSync(command[0], command.slice(1), { encoding: 'utf8', cwd: home, env });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu = /@cpu ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  return { wallMs, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (const args of cases) {
    const samples = Array.from({ length: runs }, () => runOnce(args));
    const walls = samples.map((s) => s.wallMs);
    const label = args.join(' ').replace(spec, 'examples/harness/coding.yaml');
    console.log(
      `${label.padEnd(46)} median ${median(walls).toFixed(0).padStart(5)} ms   min ${Math.min(
        ...walls,
      )
        .toFixed(0)
        .padStart(5)} ms   cpu ${median(samples.map((s) => s.cpuMs))
        .toFixed(0)
        .padStart(5)} ms   (${runs} runs)`,
    );
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
