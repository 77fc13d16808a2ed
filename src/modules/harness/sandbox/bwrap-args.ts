/** uid and gid of every process inside the sandbox (`nobody`): never root. */
export const SANDBOX_UID = 65534;

/** Directories of the host mounted read-only (or re-created as symlinks) when they exist. */
export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * Files and directories of `/etc` mounted read-only when they exist: name resolution, users and
 * groups (no shadow), the dynamic loader, TLS roots, time zone, `alternatives` symlinks. Nothing
 * else of `/etc` (no `gitconfig`, `environment`, service configuration or secrets).
 */
export const ETC_ENTRIES = [
  '/etc/alternatives',
  '/etc/ca-certificates',
  '/etc/group',
  '/etc/host.conf',
  '/etc/hosts',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/nsswitch.conf',
  '/etc/passwd',
  '/etc/protocols',
  '/etc/resolv.conf',
  '/etc/services',
  '/etc/ssl',
];

/** A {@link SYSTEM_DIRS} entry as found on the host: a directory, or a symlink to `target`. */
export interface SystemEntry {
  path: string;
  symlinkTarget?: string;
}

/** A path inside the working directory masked in the sandbox (an empty tmpfs or /dev/null). */
export interface MaskedPath {
  path: string;
  kind: 'dir' | 'file';
}

/**
 * Resource limits set with `prlimit` on the command inside the sandbox (soft = hard).
 * - `processes`: RLIMIT_NPROC (also the pids cgroup's `pids.max` when one is used).
 * - `addressSpaceBytes`: RLIMIT_AS; `fileBytes`: RLIMIT_FSIZE; `cpuSeconds`: RLIMIT_CPU.
 */
export interface ProcessLimits {
  processes: number;
  addressSpaceBytes: number;
  fileBytes: number;
  cpuSeconds: number;
}

/** Everything the bubblewrap command line depends on (all paths absolute realpaths). */
export interface BwrapPlan {
  workingDir: string;
  allowNetwork: boolean;
  system: readonly SystemEntry[];
  etc: readonly string[];
  masked: readonly MaskedPath[];
  /** Directories inside the working directory bound read-only (its `.git/`, unless allowed). */
  readOnly?: readonly string[];
  limits: ProcessLimits;
}

/**
 * `prlimit` wrapper that sets {@link ProcessLimits} on `command` and then execs it (util-linux,
 * `/usr/bin/prlimit`, run inside the sandbox so the limits bind every process started there).
 * @param limits - The limits.
 * @param command - argv of the command.
 */
export function prlimitArgv(limits: ProcessLimits, command: readonly string[]): string[] {
  return [
    '/usr/bin/prlimit',
    `--nproc=${limits.processes}`,
    `--as=${limits.addressSpaceBytes}`,
    `--fsize=${limits.fileBytes}`,
    `--cpu=${limits.cpuSeconds}`,
    '--',
    ...command,
  ];
}

/**
 * The arguments of `bwrap` (bubblewrap ≥ 0.4) that run `command` in a new user, pid, ipc, uts,
 * cgroup and (unless `allowNetwork`) network namespace as uid/gid {@link SANDBOX_UID}, in a new
 * session, dying with its parent, all capabilities dropped. The root is a read-only tmpfs holding:
 * the system directories and the `/etc` subset read-only, a private `/proc`, a minimal `/dev`, an
 * empty `/tmp`, and the working directory — the only writable bind — with `masked` paths hidden.
 * `command` runs under {@link prlimitArgv}. bwrap must be started with the allowlisted
 * environment: `/proc/1/environ` inside shows bwrap's own environment.
 * @param plan - Mounts, network and limits.
 * @param command - argv of the command, e.g. `['/bin/bash', '-c', line]`.
 */
export function bwrapArgs(plan: BwrapPlan, command: readonly string[]): string[] {
  const args = [
    '--unshare-user',
    '--uid',
    String(SANDBOX_UID),
    '--gid',
    String(SANDBOX_UID),
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(plan.allowNetwork ? [] : ['--unshare-net']),
    '--hostname',
    'sandbox',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
  ];
  for (const entry of plan.system) {
    if (entry.symlinkTarget !== undefined) args.push('--symlink', entry.symlinkTarget, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  for (const file of plan.etc) args.push('--ro-bind', file, file);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  args.push('--bind', plan.workingDir, plan.workingDir);
  for (const dir of plan.readOnly ?? []) args.push('--ro-bind', dir, dir);
  for (const mask of plan.masked) {
    if (mask.kind === 'dir') args.push('--tmpfs', mask.path);
    else args.push('--ro-bind', '/dev/null', mask.path);
  }
  args.push(
    '--remount-ro',
    '/',
    '--chdir',
    plan.workingDir,
    '--',
    ...prlimitArgv(plan.limits, command),
  );
  return args;
}
