import { lstatSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

/** The process environment as plain variables (`undefined` when unset). */
export type ProcessEnv = Readonly<Record<string, string | undefined>>;

/**
 * The process environment: the one place `src/` reads `process.env` (issue #13), under the
 * variables of the env file ({@link useEnvFile}; `.env` in the working directory by default): a
 * variable set in the environment wins over the file; a blank one is unset ({@link withoutBlanks}).
 * The server's settings are validated from it by `loadEnv`; the client commands' credentials by
 * `clientEnv` (`./client-env.ts`); the harness takes provider keys (`HarnessProviderConfig`) and
 * the tool processes' PATH/LANG/TERM (`allowlistedEnvironment`) from it. Nothing writes back
 * (file values never reach child processes except through those allowlists).
 * @throws {Error} The env file named by `--env-file` is missing or unreadable.
 */
export function processEnv(): ProcessEnv {
  const env = withoutBlanks(process.env);
  const file = envFileVariables();
  return file === NO_VARIABLES ? env : { ...file, ...env };
}

/**
 * `vars` without those that are unset: `undefined`, or an empty or blank string (`''`, spaces,
 * tabs). A blank variable counts as unset in every layer of the settings (env file, environment,
 * CLI flags, embedding options), so it neither hides a lower layer's value nor replaces a
 * default. A `KEY=` line in an env file and a compose file's `${VAR}` of an unset variable both
 * give `''`; taken as a value, `''` was 0 for the numeric settings (a rate limit or cap off).
 */
export function withoutBlanks<V>(vars: Readonly<Record<string, V | undefined>>): Record<string, V> {
  const kept: Record<string, V> = {};
  for (const [name, value] of Object.entries(vars)) {
    if (value !== undefined && !(typeof value === 'string' && value.trim() === '')) {
      kept[name] = value;
    }
  }
  return kept;
}

const NO_VARIABLES: Readonly<Record<string, string>> = Object.freeze({});
let envFile = { path: '.env', required: false };
let fileVariables: Readonly<Record<string, string>> | undefined;

/**
 * Reads variables from `path` instead of `./.env` (`--env-file`); a missing file is then an
 * error. Dotenv syntax (`KEY=value`, `#` comments, quotes), parsed by Node's `util.parseEnv`.
 */
export function useEnvFile(path: string): void {
  envFile = { path, required: true };
  fileVariables = undefined;
}

/**
 * The env file's variables (read once; `{}` when `./.env` does not exist; a link to a missing file
 * is an error, not an absent file: settings meant to lock the server down must not go missing).
 * @throws {Error} `--env-file <path>: <reason>` when a named file cannot be read, `./.env: <reason>`
 *   when `./.env` exists but cannot be read (a directory, no permission).
 */
export function envFileVariables(): Readonly<Record<string, string>> {
  if (fileVariables) return fileVariables;
  let text: string;
  try {
    text = readFileSync(resolve(envFile.path), 'utf8');
  } catch (err) {
    if (
      !envFile.required &&
      (err as NodeJS.ErrnoException).code === 'ENOENT' &&
      !isLink(envFile.path)
    ) {
      return (fileVariables = NO_VARIABLES);
    }
    const named = envFile.required ? `--env-file ${envFile.path}` : `./${envFile.path}`;
    throw new Error(`${named}: ${(err as Error).message}`);
  }
  const parsed = withoutBlanks(parseEnv(text) as Record<string, string>);
  fileVariables = Object.keys(parsed).length ? Object.freeze(parsed) : NO_VARIABLES;
  return fileVariables;
}

/**
 * The absolute path of the env file whose variables {@link processEnv} uses, or undefined when
 * there is none (`./.env` absent, or empty).
 * @throws {Error} As {@link envFileVariables}.
 */
export function envFileInUse(): string | undefined {
  return envFileVariables() === NO_VARIABLES ? undefined : resolve(envFile.path);
}

/** Whether `path` is a symbolic link (dangling or not). */
function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
