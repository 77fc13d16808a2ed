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
 */
export function superqode(
  args: string[],
  o: { home: string; env?: Record<string, string>; timeoutMs?: number },
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
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, all: stdout + stderr });
    });
  });
}
