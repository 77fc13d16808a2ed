import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { PidsCgroup } from '../sandbox/pids-cgroup';
import { planSpawn, type SandboxPolicy } from '../sandbox/sandbox-command';

/** Time between SIGTERM and SIGKILL when a process group is stopped (ms). */
export const KILL_GRACE_MS = 1000;

/**
 * How to run a command line.
 * - `cwd`: realpath of the working directory.
 * - `sandbox`: where it runs and with which environment ({@link planSpawn}).
 * - `timeoutMs`: wall-clock limit; then the whole process group is killed.
 * - `maxOutputBytes`: stdout+stderr bytes kept (the rest is counted, not stored).
 */
export interface GroupRunOptions {
  cwd: string;
  sandbox: SandboxPolicy;
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

/** One running command line: collects output, enforces the timeout and cancellation. */
class GroupRun {
  private readonly chunks: Buffer[] = [];
  private readonly result: GroupRunResult = {
    output: '',
    totalBytes: 0,
    exitCode: null,
    exitSignal: null,
  };
  private kept = 0;
  private settled = false;
  private timer?: NodeJS.Timeout;
  private child?: ChildProcessByStdio<null, Readable, Readable>;
  private cgroup: PidsCgroup | null = null;

  constructor(
    private readonly options: GroupRunOptions,
    private readonly resolve: (result: GroupRunResult) => void,
  ) {}

  start(command: string): void {
    const { cwd, sandbox, signal, timeoutMs } = this.options;
    let plan: ReturnType<typeof planSpawn>;
    try {
      // --noprofile --norc: no startup file of the checkout (in case $HOME holds any) runs
      // commands the checker never saw (bash reads ~/.bashrc when stdin looks like a socket).
      plan = planSpawn(['/bin/bash', '--noprofile', '--norc', '-c', command], cwd, sandbox, true);
    } catch (error) {
      this.result.error = (error as Error).message;
      return this.finish();
    }
    this.cgroup = plan.cgroup;
    // env is the complete environment: nothing of the server's is inherited.
    const child = spawn(plan.file, plan.args, {
      cwd,
      env: plan.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout.on('data', this.collect);
    child.stderr.on('data', this.collect);
    child.on('error', (error) => {
      this.result.error = error.message;
      this.finish();
    });
    child.on('exit', this.onExit);
    child.on('close', this.finish);
    this.timer = setTimeout(() => this.stop('timeout'), timeoutMs);
    signal.addEventListener('abort', this.onAbort, { once: true });
    if (signal.aborted) this.onAbort();
  }

  private readonly collect = (chunk: Buffer): void => {
    this.result.totalBytes += chunk.length;
    const part = chunk.subarray(0, Math.max(0, this.options.maxOutputBytes - this.kept));
    if (part.length > 0) this.chunks.push(part);
    this.kept += part.length;
  };

  private readonly onAbort = (): void => this.stop('cancelled');

  private stop(reason: 'timeout' | 'cancelled'): void {
    if (this.result.killed || this.child?.exitCode !== null) return;
    this.result.killed = reason;
    terminateGroup(this.child.pid);
  }

  private readonly onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    this.result.exitCode = code;
    this.result.exitSignal = signal;
    if (!this.result.killed) terminateGroup(this.child?.pid);
    // A process that left the group may still hold the pipes open; do not wait for it forever.
    setTimeout(() => {
      this.child?.stdout.destroy();
      this.child?.stderr.destroy();
      this.finish();
    }, KILL_GRACE_MS * 2).unref();
  };

  private readonly finish = (): void => {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.cgroup?.remove();
    this.options.signal.removeEventListener('abort', this.onAbort);
    this.resolve({ ...this.result, output: Buffer.concat(this.chunks).toString('utf8') });
  };
}

/**
 * Runs `/bin/bash -c <command>` as the leader of its own process group (`detached: true`,
 * stdin closed), in the sandbox `options.sandbox` names, with its allowlisted environment. On
 * timeout or abort the whole group gets SIGTERM, then SIGKILL after a grace period; when bash
 * exits normally, background jobs left in its group are terminated the same way. Under `local`
 * a process that calls setsid escapes this; under `bwrap` the group leader is bwrap, whose death
 * ends the sandbox's pid namespace and so every process in it, setsid or not.
 * @param command - The command line.
 * @param options - cwd, environment, timeout, abort signal and output cap.
 * @returns Never rejects; spawn failures are reported in `error`.
 */
export function runInProcessGroup(
  command: string,
  options: GroupRunOptions,
): Promise<GroupRunResult> {
  return new Promise((resolve) => new GroupRun(options, resolve).start(command));
}
