import { LIVE_KEY_PREFIX, TEST_KEY_PREFIX } from '../modules/auth/api-key-prefixes';

/**
 * Flags of the `superqode` CLI whose value is a credential or a URL that can carry one:
 * `--token` (the operator token of `serve a2a`; a client token of `connect a2a` and `a2a …`),
 * `--database-url` and `--redis-url` (passwords in the URL) and `--header` (e.g.
 * `Authorization: Bearer …`).
 */
export const SECRET_FLAGS: ReadonlySet<string> = new Set([
  '--token',
  '--database-url',
  '--redis-url',
  '--header',
]);

/** What a secret flag's value, or an API key anywhere on the line, is shown as. */
export const REDACTED = '***';

/** True for an argument that is an API key (`sqk_live_…`, `sqk_test_…`: `a2a-keys verify KEY`). */
function isApiKey(arg: string): boolean {
  return arg.startsWith(LIVE_KEY_PREFIX) || arg.startsWith(TEST_KEY_PREFIX);
}

/**
 * The command line with the value of every {@link SECRET_FLAGS} flag replaced by `***`, in both
 * forms (`--token VALUE`, `--token=VALUE`), and every argument that is an API key too;
 * `undefined` when there is nothing to hide. After `--` only API keys are replaced (what follows
 * is not options).
 * @param args The arguments after the script (`process.argv.slice(2)`).
 */
export function redactedArgs(args: readonly string[]): string[] | undefined {
  const out: string[] = [];
  let changed = false;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf('=');
    if (options && arg === '--') {
      options = false;
      out.push(arg);
    } else if (options && eq > 0 && SECRET_FLAGS.has(arg.slice(0, eq))) {
      out.push(`${arg.slice(0, eq)}=${REDACTED}`);
      changed = true;
    } else if (options && SECRET_FLAGS.has(arg) && i + 1 < args.length) {
      out.push(arg, REDACTED);
      i++;
      changed = true;
    } else if (isApiKey(arg)) {
      // An argument, not an option: a key after `--` is a key too (`verify -- KEY`).
      out.push(REDACTED);
      changed = true;
    } else {
      out.push(arg);
    }
  }
  return changed ? out : undefined;
}

/**
 * Hides secret flag values from other local users: on Linux, `/proc/PID/cmdline` (what `ps`
 * shows) is readable by every user, and Node's `process.title` setter rewrites that memory. The
 * title becomes `superqode <args>` with {@link redactedArgs}; nothing changes when no secret flag
 * or key was given. The value is visible until this runs (Node's start-up, ~150 ms), so the
 * environment variables (`SUPERQODE_A2A_TOKEN`, `SUPERQODE_A2A_DATABASE_URL`, …;
 * `/proc/PID/environ` is readable by the same user only) and standard input (`a2a-keys verify -`)
 * stay the ways to pass secrets (docs/security.md).
 * @returns true when the title was rewritten.
 */
export function hideSecretArgs(argv: readonly string[] = process.argv): boolean {
  const shown = redactedArgs(argv.slice(2));
  if (shown === undefined) return false;
  process.title = ['superqode', ...shown].join(' ');
  return true;
}
