import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a writable pids controller may be mounted (cgroup v1, then the v2 root). */
const PIDS_ROOTS = ['/sys/fs/cgroup/pids', '/sys/fs/cgroup'];

let counter = 0;

/** A pids cgroup holding one sandbox: `procsFile` to join it, `remove()` once it has ended. */
export interface PidsCgroup {
  procsFile: string;
  remove(): void;
}

function writableRoot(): string | null {
  for (const root of PIDS_ROOTS) {
    try {
      const v2 = root === '/sys/fs/cgroup';
      if (v2 && !readFileSync(join(root, 'cgroup.subtree_control'), 'utf8').includes('pids'))
        continue;
      const probe = join(root, `superqode-probe-${process.pid}`);
      mkdirSync(probe);
      rmdirSync(probe);
      sweepStale(root);
      return root;
    } catch {
      // Not mounted, no pids controller, or not writable.
    }
  }
  return null;
}

let root: string | null | undefined;

/**
 * A new pids cgroup with `pids.max = maxProcesses`, or null when no writable pids controller is
 * mounted. Used when the server runs as root: RLIMIT_NPROC does not bind processes whose host
 * uid is 0 (Linux exempts INIT_USER in fork), so without it a fork bomb would not stop.
 * @param maxProcesses - Tasks (processes and threads) allowed in the cgroup.
 */
export function createPidsCgroup(maxProcesses: number): PidsCgroup | null {
  if (root === undefined) root = writableRoot();
  if (root === null) return null;
  const dir = join(root, `superqode-${process.pid}-${++counter}`);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, 'pids.max'), String(maxProcesses));
  } catch {
    return null;
  }
  return { procsFile: join(dir, 'cgroup.procs'), remove: () => removeLater(dir, 20) };
}

/** Removes empty cgroups left by servers that are gone (their rmdir retries die with them). */
function sweepStale(root: string): void {
  for (const name of readdirSync(root)) {
    const pid = /^superqode-(\d+)-\d+$/.exec(name)?.[1];
    if (pid === undefined || alive(Number(pid))) continue;
    try {
      rmdirSync(join(root, name));
    } catch {
      // Still has processes, or already gone.
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** rmdir once the cgroup is empty (its last processes may still be exiting). */
function removeLater(dir: string, attempts: number): void {
  try {
    rmdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EBUSY' && attempts > 1)
      setTimeout(() => removeLater(dir, attempts - 1), 250).unref();
  }
}
