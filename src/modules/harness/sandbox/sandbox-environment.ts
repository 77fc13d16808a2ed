import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessEnv, processEnv } from '../../../config/process-env';

/** PATH inside the bubblewrap sandbox (only system directories are mounted there). */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** `HOME` inside the bubblewrap sandbox: its private, empty `/tmp` tmpfs (gone with the command). */
export const SANDBOX_HOME = '/tmp';

let localHome: string | undefined;

/**
 * `HOME` of `local` tool processes: one private directory (mode 0700) under the OS temp dir,
 * made on first use and shared by this server's runs. Never the working directory, so tools'
 * caches and logs (`~/.npm/_logs`, `~/.cache`) land neither in the checkout nor in `changes.diff`.
 */
export function localToolHome(): string {
  localHome ??= mkdtempSync(join(tmpdir(), 'superqode-tool-home-'));
  return localHome;
}

/**
 * The whole environment of a tool or git process, built from an allowlist (never a scrubbed
 * copy of the server's): `PATH` (the server's for `local`, {@link SANDBOX_PATH} for `bwrap`),
 * `HOME` ({@link SANDBOX_HOME} under bwrap, else {@link localToolHome}; never the checkout), `LANG` and `TERM` (the server's values, else `C.UTF-8` and
 * `dumb`), then the spec's `execution_policy.env`, which wins.
 * @param specEnv - `execution_policy.env`.
 * @param mode - The sandbox in force.
 * @param server - The server's environment (default {@link processEnv}); only PATH, LANG and TERM are read.
 */
export function allowlistedEnvironment(
  specEnv: Readonly<Record<string, string>>,
  mode: 'local' | 'bwrap',
  server: ProcessEnv = processEnv(),
): Record<string, string> {
  return {
    PATH: mode === 'bwrap' ? SANDBOX_PATH : (server.PATH ?? SANDBOX_PATH),
    HOME: mode === 'bwrap' ? SANDBOX_HOME : localToolHome(),
    LANG: server.LANG ?? 'C.UTF-8',
    TERM: server.TERM ?? 'dumb',
    ...specEnv,
  };
}
