import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { analyzeCommandLine } from './bash-command-line';
import { ALLOWED_SHIMS, CommandLineGrammar, FORBIDDEN_SHIMS } from './command-line-grammar';

const SEED = Number(process.env.CMDCHECK_SEED ?? 20261201);
const LINES = Number(process.env.CMDCHECK_LINES ?? 2000);
const BATCHES = 4;
const REFUSED_SAMPLE = 10;

/** Each shim logs its name; the launchers among them then run their arguments like the real ones. */
function shimScript(name: string): string {
  const log = `echo ${name} >> "$SHIM_LOG"`;
  const launch = '[ $# -gt 0 ] && exec "$@"\nexit 0';
  if (name === 'env')
    return `${log}\nwhile [ $# -gt 0 ] && case "$1" in *=*) true;; *) false;; esac; do shift; done\n${launch}`;
  if (name === 'nohup') return `${log}\n${launch}`;
  if (name === 'timeout') return `${log}\nshift\n${launch}`;
  return `${log}\nexit 0`;
}

/**
 * Runs each NUL-separated line of a batch with `bash -c`, PATH = the shims only and no other
 * environment, stdin closed, CPU time capped. Every line holds the driver's stdout on fd 9, so
 * the driver's pipe closes (and `execFile` returns) only once every process of every line,
 * background ones included, has exited: a late program still lands in its line's log.
 */
const DRIVER = `
ulimit -t 3
i=0
while IFS= read -r -d '' line; do
  env -i PATH="$SHIMS" SHIM_LOG="$LOGS/$i" /bin/bash -c "$line" 9>&1 >/dev/null 2>&1 </dev/null
  i=$((i+1))
done < "$BATCH"
`;

interface Finding {
  line: string;
  ran: string[];
}

async function runBatch(root: string, shims: string, lines: string[], b: number) {
  const dir = path.join(root, `batch-${b}`);
  const logs = path.join(dir, 'logs');
  const work = path.join(dir, 'work');
  await mkdir(logs, { recursive: true });
  await mkdir(work);
  await writeFile(path.join(dir, 'lines'), lines.map((l) => `${l}\0`).join(''));
  await promisify(execFile)('/bin/bash', ['--norc', '--noprofile', '-c', DRIVER], {
    cwd: work,
    env: { PATH: process.env.PATH, SHIMS: shims, LOGS: logs, BATCH: path.join(dir, 'lines') },
    maxBuffer: 1 << 20,
    timeout: 110_000,
  });
  return Promise.all(
    lines.map(async (_, i) =>
      (await readFile(path.join(logs, String(i)), 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean),
    ),
  );
}

describe('bash command checker, differential against bash', () => {
  let root: string;
  let shims: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cmdcheck-diff-'));
    shims = path.join(root, 'shims');
    await mkdir(shims);
    for (const name of [...ALLOWED_SHIMS, ...FORBIDDEN_SHIMS]) {
      await writeFile(path.join(shims, name), `#!/bin/sh\n${shimScript(name)}\n`);
      await chmod(path.join(shims, name), 0o755);
    }
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it(`runs no program the checker did not list (${LINES} lines, seed ${SEED})`, async () => {
    const grammar = new CommandLineGrammar(SEED);
    const lines = Array.from({ length: LINES }, () => grammar.line());
    const analyses = await Promise.all(lines.map((line) => analyzeCommandLine(line)));
    const accepted = lines.filter((_, i) => {
      const { programs, problem } = analyses[i];
      return !problem && programs.every((p) => ALLOWED_SHIMS.includes(p));
    });
    // Every accepted line runs; one refused line in REFUSED_SAMPLE runs to show refusals matter.
    const refused = lines.filter((l) => !accepted.includes(l));
    const sample = refused.filter((_, i) => i % REFUSED_SAMPLE === 0);
    const listed = new Map(lines.map((l, i) => [l, analyses[i].programs]));
    const toRun = [...accepted, ...sample];
    const size = Math.ceil(toRun.length / BATCHES);
    const batches = Array.from({ length: BATCHES }, (_, b) =>
      toRun.slice(b * size, (b + 1) * size),
    );
    const ran = (await Promise.all(batches.map((l, b) => runBatch(root, shims, l, b)))).flat();

    const bypasses: Finding[] = [];
    const neededRefusals: Finding[] = [];
    toRun.forEach((line, i) => {
      const programs = listed.get(line) ?? [];
      if (i < accepted.length) {
        const unlisted = ran[i].filter((p) => !ALLOWED_SHIMS.includes(p) || !programs.includes(p));
        if (unlisted.length > 0) bypasses.push({ line, ran: ran[i] });
      } else if (ran[i].some((p) => FORBIDDEN_SHIMS.includes(p))) {
        neededRefusals.push({ line, ran: ran[i] });
      }
    });
    process.stdout.write(
      `differential: ${LINES} lines, ${accepted.length} accepted and run; of ${sample.length} ` +
        `refused lines run, ${neededRefusals.length} ran a forbidden program\n`,
    );

    expect(bypasses.slice(0, 10)).toEqual([]);
    // The generator has teeth: refused lines do run forbidden programs, and many lines pass.
    expect(neededRefusals.length).toBeGreaterThan(sample.length / 10);
    expect(accepted.length).toBeGreaterThan(LINES / 5);
  }, 120_000);
});
