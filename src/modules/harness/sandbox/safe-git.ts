import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { promisify } from 'node:util';
import { planSpawn, type SandboxPolicy } from './sandbox-command';

const run = promisify(execFile);

/**
 * Options before every git subcommand the server runs: no fsmonitor daemon or hook command from
 * the checkout's `.git/config` (`core.fsmonitor = "sh -c …"` would otherwise run on `git status`).
 */
export const GIT_HARDENING_ARGS = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];

/** Environment of the server's git commands: system and global config ignored, never a prompt. */
export const GIT_HARDENING_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};

/** Policy of git commands run without a spec: no isolation (so `limits` are not applied). */
export const LOCAL_GIT_POLICY: SandboxPolicy = {
  sandbox: 'local',
  allowNetwork: false,
  env: {},
  limits: {
    processes: 256,
    addressSpaceBytes: 8 * 1024 ** 3,
    fileBytes: 1024 ** 3,
    cpuSeconds: 600,
  },
};

/** How long a git command may take (ms) and how much output is kept (bytes). */
export interface GitRunOptions {
  timeoutMs: number;
  maxBuffer: number;
}

/**
 * Runs `git <args>` in `dir` as the server's own bookkeeping (status, diff) would: hardened
 * ({@link GIT_HARDENING_ARGS}, {@link GIT_HARDENING_ENV}), with an allowlisted environment, and
 * under the spec's sandbox (bwrap: the same namespaces and mounts as tools, never the network).
 * @param dir - The working directory (resolved to its realpath).
 * @param args - git arguments after the hardening options.
 * @param policy - The spec's sandbox policy ({@link LOCAL_GIT_POLICY} when there is no spec).
 * @param options - Timeout and output cap.
 * @returns stdout; rejects as `execFile` does (non-zero exit: `code` and `stdout` on the error).
 */
export async function runGit(
  dir: string,
  args: readonly string[],
  policy: SandboxPolicy,
  options: GitRunOptions,
): Promise<string> {
  const cwd = realpathSync(dir);
  const gitPolicy = { ...policy, allowNetwork: false, env: GIT_HARDENING_ENV };
  const plan = planSpawn(['git', ...GIT_HARDENING_ARGS, ...args], cwd, gitPolicy);
  const { stdout } = await run(plan.file, plan.args, {
    cwd,
    env: plan.env,
    timeout: options.timeoutMs,
    maxBuffer: options.maxBuffer,
    encoding: 'utf8',
  });
  return stdout;
}
