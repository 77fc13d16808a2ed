import { spawn } from 'node:child_process';

/** Time between SIGTERM and SIGKILL when a process group is stopped (ms). */
export const KILL_GRACE_MS = 1000;

/**
 * How to run a command line.
 * - `timeoutMs`: wall-clock limit; then the whole process group is killed.
 * - `maxOutputBytes`: stdout+stderr bytes kept (the rest is counted, not stored).
 */
export interface GroupRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  maxOutputBytes: number;
}

/**
 * The outcome of a command line.
 * - `output`: stdout and stderr interleaved in arrival order, at most `maxOutputBytes` bytes.
 * - `totalBytes`: bytes produced in all.
 * - `exitCode`/`exitSignal`: from bash itself (`null` when not applicable).
 * - `killed`: set when the group was killed for the timeout or cancellation.
 * - `error`: spawn failure (e.g. missing cwd).
 */
export interface GroupRunResult {
  output: string;
  totalBytes: number;
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  killed?: 'timeout' | 'cancelled';
  error?: string;
}

function killGroup(pgid: number | undefined, signal: NodeJS.Signals): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** SIGTERM to the group now, SIGKILL after {@link KILL_GRACE_MS} (timer does not hold the loop). */
function terminateGroup(pgid: number | undefined): void {
  killGroup(pgid, 'SIGTERM');
  setTimeout(() => killGroup(pgid, 'SIGKILL'), KILL_GRACE_MS).unref();
}

/**
 * Runs `/bin/bash -c <command>` as the leader of its own process group (`detached: true`,
 * stdin closed). On timeout or abort the whole group gets SIGTERM, then SIGKILL after a
 * grace period; when bash exits normally, background jobs left in its group are terminated
 * the same way, so nothing outlives the call (a process that calls setsid escapes this).
 * @param command - The command line.
 * @param options - cwd, environment, timeout, abort signal and output cap.
 * @returns Never rejects; spawn failures are reported in `error`.
 */
export function runInProcessGroup(
  command: string,
  options: GroupRunOptions,
): Promise<GroupRunResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const result: GroupRunResult = { output: '', totalBytes: 0, exitCode: null, exitSignal: null };
    let kept = 0;
    const child = spawn('/bin/bash', ['-c', command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      result.totalBytes += chunk.length;
      const part = chunk.subarray(0, Math.max(0, options.maxOutputBytes - kept));
      if (part.length > 0) chunks.push(part);
      kept += part.length;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const stop = (reason: 'timeout' | 'cancelled') => {
      if (result.killed || child.exitCode !== null) return;
      result.killed = reason;
      terminateGroup(child.pid);
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = () => stop('cancelled');
    options.signal.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({ ...result, output: Buffer.concat(chunks).toString('utf8') });
    };
    child.on('error', (error) => {
      result.error = error.message;
      finish();
    });
    child.on('exit', (code, signal) => {
      result.exitCode = code;
      result.exitSignal = signal;
      if (!result.killed) terminateGroup(child.pid);
      // A process outside the group may still hold the pipes open; do not wait for it forever.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, KILL_GRACE_MS * 2).unref();
    });
    child.on('close', finish);
    if (options.signal.aborted) onAbort();
  });
}
