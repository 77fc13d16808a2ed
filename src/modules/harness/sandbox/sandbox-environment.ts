import { ProcessEnv, processEnv } from '../../../config/process-env';

/** PATH inside the bubblewrap sandbox (only system directories are mounted there). */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The whole environment of a tool or git process, built from an allowlist (never a scrubbed
 * copy of the server's): `PATH` (the server's for `local`, {@link SANDBOX_PATH} for `bwrap`),
 * `HOME` = the working directory, `LANG` and `TERM` (the server's values, else `C.UTF-8` and
 * `dumb`), then the spec's `execution_policy.env`, which wins.
 * @param workingDir - Realpath of the working directory.
 * @param specEnv - `execution_policy.env`.
 * @param mode - The sandbox in force.
 * @param server - The server's environment (default {@link processEnv}); only PATH, LANG and TERM are read.
 */
export function allowlistedEnvironment(
  workingDir: string,
  specEnv: Readonly<Record<string, string>>,
  mode: 'local' | 'bwrap',
  server: ProcessEnv = processEnv(),
): Record<string, string> {
  return {
    PATH: mode === 'bwrap' ? SANDBOX_PATH : (server.PATH ?? SANDBOX_PATH),
    HOME: workingDir,
    LANG: server.LANG ?? 'C.UTF-8',
    TERM: server.TERM ?? 'dumb',
    ...specEnv,
  };
}
