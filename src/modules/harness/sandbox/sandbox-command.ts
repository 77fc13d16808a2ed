import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessSpec } from '../spec/harness-spec.schema';
import { bwrapArgs, type ProcessLimits } from './bwrap-args';
import { createPidsCgroup, type PidsCgroup } from './pids-cgroup';
import { allowlistedEnvironment } from './sandbox-environment';
import { etcEntries, maskedPaths, systemEntries } from './sandbox-host';
import {
  probeBwrap,
  type RequestedSandbox,
  resolveSandbox,
  type SandboxName,
} from './sandbox-probe';

/** What a spec asks of every process started for it (tools and the server's git commands). */
export interface SandboxPolicy {
  sandbox: RequestedSandbox;
  allowNetwork: boolean;
  env: Readonly<Record<string, string>>;
  limits: ProcessLimits;
  /** `execution_policy.allow_git_writes`: else the checkout's `.git/` is read-only in bwrap. */
  allowGitWrites?: boolean;
}

/**
 * The sandbox policy of a spec: `execution_policy.sandbox`, `allow_network`, `env` and the
 * `limits.max_processes`, `max_address_space_bytes`, `max_file_bytes`, `max_cpu_seconds`.
 */
export function sandboxPolicy(spec: HarnessSpec): SandboxPolicy {
  const { execution_policy: policy, limits } = spec;
  return {
    sandbox: policy.sandbox,
    allowNetwork: policy.allow_network,
    env: policy.env,
    allowGitWrites: policy.allow_git_writes,
    limits: {
      processes: limits.max_processes,
      addressSpaceBytes: limits.max_address_space_bytes,
      fileBytes: limits.max_file_bytes,
      cpuSeconds: limits.max_cpu_seconds,
    },
  };
}

/**
 * How to spawn a command: `file` and `args` for `child_process.spawn`/`execFile`, the complete
 * `env` to pass (never inherit the server's), the sandbox in force, and a pids cgroup to
 * `remove()` after the process closed (null when none is used).
 */
export interface SpawnPlan {
  file: string;
  args: string[];
  env: Record<string, string>;
  sandbox: SandboxName;
  cgroup: PidsCgroup | null;
}

/** Thrown when a spec asks for `sandbox: bwrap` and bubblewrap does not work on this host. */
export class SandboxUnavailableError extends Error {}

/**
 * Plans `command` in `workingDir` under `policy`. `local`: the command itself with the
 * allowlisted environment. `bwrap`: bubblewrap ({@link bwrapArgs}) started with the allowlisted
 * environment; with `withPidsCgroup` and a server running as root, inside a fresh pids cgroup
 * (joined by a `/bin/sh` that then execs bwrap) since RLIMIT_NPROC does not bind host uid 0.
 * @param command - argv, e.g. `['/bin/bash', '-c', line]` or `['git', 'status']`.
 * @param workingDir - Realpath of the working directory.
 * @param policy - From {@link sandboxPolicy}.
 * @param withPidsCgroup - Ask for a pids cgroup (tool commands; the server's git does not).
 * @throws {SandboxUnavailableError} `bwrap` asked for and the probe failed.
 */
export function planSpawn(
  command: readonly string[],
  workingDir: string,
  policy: SandboxPolicy,
  withPidsCgroup = false,
): SpawnPlan {
  const sandbox = resolveSandbox(policy.sandbox);
  const env = allowlistedEnvironment(policy.env, sandbox);
  if (sandbox === 'local') {
    return { file: command[0], args: command.slice(1), env, sandbox, cgroup: null };
  }
  const probe = probeBwrap();
  if (!probe.ok)
    throw new SandboxUnavailableError(`the bwrap sandbox does not work here: ${probe.reason}`);
  const args = bwrapArgs(
    {
      workingDir,
      allowNetwork: policy.allowNetwork,
      system: systemEntries(),
      etc: etcEntries(),
      masked: maskedPaths(workingDir),
      // Without allow_git_writes, commands cannot plant hooks, fsmonitor or aliases in .git/
      // either (the file tools refuse such writes on their own).
      readOnly: policy.allowGitWrites ? [] : gitDirsOf(workingDir),
      limits: policy.limits,
    },
    command,
  );
  const cgroup =
    withPidsCgroup && process.getuid?.() === 0 ? createPidsCgroup(policy.limits.processes) : null;
  if (!cgroup) return { file: 'bwrap', args, env, sandbox, cgroup };
  const join = 'echo $$ > "$0" && exec "$@"';
  return {
    file: '/bin/sh',
    args: ['-c', join, cgroup.procsFile, 'bwrap', ...args],
    env,
    sandbox,
    cgroup,
  };
}

/** The working directory's own `.git` directory, when it has one (a `.git` file is a worktree link). */
function gitDirsOf(workingDir: string): string[] {
  const dir = join(workingDir, '.git');
  return existsSync(dir) && statSync(dir).isDirectory() ? [dir] : [];
}
