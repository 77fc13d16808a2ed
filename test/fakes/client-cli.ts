import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The built CLI (`npx tsc -p tsconfig.build.json` or `npm run build`). */
export const CLI = join(__dirname, '../../dist/cli.js');

/** Outcome of one CLI run. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout + stderr. */
  all: string;
}

/** Throws unless the built CLI exists. */
export function requireBuiltCli(): void {
  if (!existsSync(CLI))
    throw new Error(
      'dist/cli.js is missing: run `npx tsc -p tsconfig.build.json` (npm test builds)',
    );
}

/** A fresh HOME for saved connections and tokens. */
export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'sq-home-'));
}

/**
 * Runs the built CLI asynchronously (the test server lives in this process, so a synchronous
 * spawn would block it), with HOME set and only the given extra environment.
 * @param o.until - Output (stdout + stderr) at which the CLI is killed (code null): for a CLI
 *   that waits for what never comes (a browser sign-in), instead of waiting for `timeoutMs`.
 * @param o.timeoutMs - Kill (SIGKILL, code null) after this many ms; default 25,000.
 */
export function superqode(
  args: string[],
  o: { home: string; env?: Record<string, string>; timeoutMs?: number; until?: RegExp },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: o.home,
      NO_COLOR: '1',
      ...o.env,
    };
    const child = spawn(process.execPath, [CLI, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const seen = (): void => {
      if (o.until?.test(stdout + stderr)) child.kill('SIGKILL');
    };
    child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), seen()));
    child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), seen()));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, all: stdout + stderr });
    });
  });
}

/** Client variables cleared for an in-process run unless given (a spawned run starts without them). */
const CLIENT_VARIABLES = [
  'SUPERQODE_A2A_CLIENT_TOKEN',
  'SUPERQODE_A2A_OAUTH_CLIENT_ID',
  'SUPERQODE_A2A_OAUTH_CLIENT_SECRET',
  'SUPERQODE_A2A_OAUTH_STORE',
  'SUPERQODE_A2A_SECRET_STORE',
];

/**
 * Runs a client command (`connect a2a …`, `a2a …`) in process with nest-commander-testing on the
 * CLI's client command modules, with HOME set and the client variables only as given: the same
 * outcome as {@link superqode}, without a process start per run.
 */
export async function superqodeInProcess(
  args: string[],
  o: { home: string; env?: Record<string, string> },
): Promise<CliRun> {
  // Loaded on use: spawn-only suites need not build the command modules.
  const { runCommandInProcess } = await import('../utils/in-process-cli');
  const { ClientCommandsModule } =
    await import('../../src/modules/client/commands/client-commands.module');
  const { TaskCommandsModule } =
    await import('../../src/modules/tasks/commands/task-commands.module');
  const cleared = Object.fromEntries(CLIENT_VARIABLES.map((k) => [k, undefined]));
  const r = await runCommandInProcess([ClientCommandsModule, TaskCommandsModule], args, {
    ...cleared,
    HOME: o.home,
    NO_COLOR: '1',
    ...o.env,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, all: r.out };
}
