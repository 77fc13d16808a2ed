#!/usr/bin/env node
// Times `superqode --version`, `--help` and `serve a2a --help` (dist/cli.js, built by
// `npx tsc -p tsconfig.build.json`): median and min wall time of N runs each, in ms.
// Usage: node scripts/measure-cli-startup.mjs [runs=11] [path/to/cli.js]
// A script, not a test: timings depend on the machine's load (issue #13 target: < 300 ms).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli =
  process.argv[3] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const runs = Number(process.argv[2] ?? 11);
const cases = [['--version'], ['--help'], ['serve', 'a2a', '--help'], ['node -e 0 (baseline)']];

for (const args of cases) {
  const baseline = args[0].startsWith('node -e');
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    const r = baseline
      ? spawnSync(process.execPath, ['-e', '0'])
      : spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `${args.join(' ').padEnd(24)} median ${median.toFixed(0).padStart(5)} ms   min ${times[0].toFixed(0).padStart(5)} ms   (${runs} runs)`,
  );
}
