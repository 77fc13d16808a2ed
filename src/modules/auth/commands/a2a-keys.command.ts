import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import {
  API_KEY_DEFAULT_DAYS,
  API_KEY_DEFAULT_TIER,
  API_KEY_MAX_DAYS,
  API_KEY_SCOPES,
  ApiKeyError,
  ApiKeyErrorCode,
  IssuedApiKey,
  generateKeySecret,
  isKnownScope,
  isValidTier,
} from '../api-key';
import { ApiKeysService } from '../api-keys.service';
import type { ApiKeysStatus, ApiKeyVariable } from '../api-keys.service';
import { InvalidFlagError } from './invalid-flag.error';
import { CLI_EXIT } from '../../../cli/exit-codes';
import { assertServePolicy } from '../../../config/a2a.config';
import { ConfigValidationError } from '../../../config/config-errors';
import { loadEnv } from '../../../config/load-env';
import { envFileInUse } from '../../../config/process-env';

export { InvalidFlagError } from './invalid-flag.error';

/** Flags of `superqode a2a-keys issue`, as parsed by nest-commander. */
export interface IssueKeyFlags {
  /** `--tier`; default `standard`. */
  tier?: string;
  /** `--days`, 1-3650; default 30. */
  days?: number;
  /** `--test-key`: issue a `sqk_test_` key. */
  testKey?: boolean;
  /** `--scope` (repeatable), each one of `API_KEY_SCOPES`. */
  scope?: string[];
}

/** `scopes=a,b` or `scopes=none`, as `verify` prints it. */
function scopesText(scopes: readonly string[] | undefined): string {
  return `scopes=${scopes?.length ? scopes.join(',') : 'none'}`;
}

/** Unix seconds → ISO 8601 UTC. */
function isoFromUnix(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** One-line error on stderr and a non-zero exit code (the command returns normally). */
function fail(message: string, exitCode: number): void {
  process.stderr.write(`error: ${message}\n`);
  process.exitCode = exitCode;
}

/**
 * Refuses to run on settings the server would refuse: an unreadable `./.env`, or an invalid one
 * of `names` (never its value), with one line on stderr and exit 1.
 * @returns Whether the command may go on.
 */
function settingsUsable(status: ApiKeysStatus, names: readonly ApiKeyVariable[]): boolean {
  if (status.unreadable !== undefined) {
    fail(status.unreadable, CLI_EXIT.failed);
    return false;
  }
  const name = names.find((n) => status.problems[n] !== undefined);
  if (name === undefined) return true;
  fail(
    `${name} is invalid (${status.problems[name]}): the server refuses to start with it`,
    CLI_EXIT.failed,
  );
  return false;
}

/**
 * A key command that reads the key settings: it takes `--env-file`, applied before the container
 * is built (`createCli`: the settings are read then); the option is declared here for commander's
 * parsing and help.
 */
abstract class KeySettingsCommand extends CommandRunner {
  @Option({
    flags: '--env-file <path>',
    description: 'read variables from this file instead of ./.env (set variables win)',
  })
  parseEnvFile(v: string): string {
    return v;
  }
}

/**
 * `superqode a2a-keys secret`: prints a new random signing secret (64 base64url chars) on stdout,
 * one line, and on stderr how to install it. The only command that ever prints a secret.
 */
@SubCommand({ name: 'secret', description: 'Print a new random signing secret' })
export class A2aKeysSecretCommand extends CommandRunner {
  async run(): Promise<void> {
    process.stdout.write(`${generateKeySecret()}\n`);
    process.stderr.write(
      'Set it as SUPERQODE_A2A_KEY_SECRET in the server environment and keep it private; ' +
        'replacing it invalidates every key issued with the old one.\n',
    );
  }
}

/**
 * `superqode a2a-keys issue LABEL [--tier T] [--days N] [--test-key] [--scope S]…`: prints
 * `key: …`, `id: …` and `expires: <ISO 8601>` on stdout (and `scopes: …` when any were granted).
 * The key is shown once and not stored anywhere.
 * Exit 1 when no signing secret is configured; exit 2 for a bad flag, label, tier or scope.
 */
@SubCommand({
  name: 'issue',
  arguments: '<label>',
  argsDescription: { label: 'customer label signed into the key (1-128 chars)' },
  description: 'Issue a signed API key',
})
export class A2aKeysIssueCommand extends KeySettingsCommand {
  constructor(private readonly keys: ApiKeysService) {
    super();
  }

  async run([label]: string[], flags: IssueKeyFlags = {}): Promise<void> {
    if (!settingsUsable(this.keys.status(), ['SUPERQODE_A2A_KEY_SECRET'])) return;
    let issued: IssuedApiKey;
    try {
      issued = this.keys.issue({
        label,
        tier: flags.tier,
        days: flags.days,
        test: flags.testKey,
        scopes: flags.scope,
      });
    } catch (err) {
      if (!(err instanceof ApiKeyError)) throw err;
      return fail(err.message, err.code === ApiKeyErrorCode.InvalidOptions ? 2 : 1);
    }
    const { key, claims } = issued;
    const scopes = claims.scopes?.length ? `scopes: ${claims.scopes.join(',')}\n` : '';
    process.stdout.write(
      `key: ${key}\nid: ${claims.kid}\nexpires: ${isoFromUnix(claims.exp)}\n${scopes}`,
    );
    process.stderr.write(
      'Shown once: nothing is stored. Revoke it by adding its id to SUPERQODE_A2A_REVOKED_KEYS.\n',
    );
  }

  @Option({ flags: '--tier <tier>', description: `tier label (default ${API_KEY_DEFAULT_TIER})` })
  parseTier(value: string): string {
    if (!isValidTier(value)) {
      throw new InvalidFlagError(
        '--tier must be 1-32 of A-Z a-z 0-9 . _ - (starting alphanumeric)',
      );
    }
    return value;
  }

  @Option({
    flags: '--days <days>',
    description: `validity in days, 1-${API_KEY_MAX_DAYS} (default ${API_KEY_DEFAULT_DAYS})`,
  })
  parseDays(value: string): number {
    const days = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
    if (!(days >= 1 && days <= API_KEY_MAX_DAYS)) {
      throw new InvalidFlagError(`--days must be a whole number from 1 to ${API_KEY_MAX_DAYS}`);
    }
    return days;
  }

  @Option({
    flags: '--scope <scope>',
    description: `grant a scope, repeatable (${API_KEY_SCOPES.join(', ')}: run the harness under --harness-access keyed)`,
  })
  parseScope(value: string, previous: string[] = []): string[] {
    if (!isKnownScope(value)) {
      throw new InvalidFlagError(`--scope must be one of: ${API_KEY_SCOPES.join(', ')}`);
    }
    return [...previous, value];
  }

  @Option({ flags: '--test-key', description: 'issue a sqk_test_ key instead of sqk_live_' })
  parseTestKey(): boolean {
    return true;
  }
}

/** Longest line `verify -` reads from standard input, characters (a key is under 1 KiB). */
const MAX_KEY_LINE_CHARS = 8192;

/**
 * The first non-blank line of standard input, trimmed (`key`); neither when it ends first, and
 * `tooLong` when no line ends within {@link MAX_KEY_LINE_CHARS}. Prompts on stderr when standard
 * input is a terminal. Used by `verify -` so that the key is not on the command line.
 */
async function keyFromStdin(): Promise<{ key?: string; tooLong?: true }> {
  if (process.stdin.isTTY) process.stderr.write('API key (then Enter): ');
  process.stdin.setEncoding('utf8');
  let pending = '';
  for await (const chunk of process.stdin as AsyncIterable<string>) {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    const key = lines.map((l) => l.trim()).find((l) => l !== '');
    if (key !== undefined) return { key }; // leaving the loop destroys stdin: the rest is not read
    if (pending.length > MAX_KEY_LINE_CHARS) return { tooLong: true };
  }
  const last = pending.trim();
  return last === '' ? {} : { key: last };
}

/**
 * `superqode a2a-keys verify KEY|-`: checks a key with the configured secret, revocation list and
 * clock; `-` reads it from the first non-blank line of standard input, where `ps` cannot see it
 * (a key on the command line is hidden from the process title at start, not from the shell's
 * history). Valid → `valid: id=… customer=… tier=… scopes=…|none expires=<ISO> (live|test)`,
 * exit 0; refused → `rejected: <message> (<code>)`, exit 1; `-` with no line, or one over
 * 8,192 characters → exit 2.
 */
@SubCommand({
  name: 'verify',
  arguments: '<key>',
  argsDescription: {
    key: 'the sqk_live_… or sqk_test_… key, or - to read it from standard input',
  },
  description: 'Verify an API key',
})
export class A2aKeysVerifyCommand extends KeySettingsCommand {
  constructor(private readonly keys: ApiKeysService) {
    super();
  }

  async run([given]: string[]): Promise<void> {
    const usable = ['SUPERQODE_A2A_KEY_SECRET', 'SUPERQODE_A2A_REVOKED_KEYS'] as const;
    if (!settingsUsable(this.keys.status(), usable)) return;
    const read = given === '-' ? await keyFromStdin() : { key: given };
    if (read.key === undefined) {
      const why = read.tooLong
        ? `a line longer than ${MAX_KEY_LINE_CHARS} characters on standard input`
        : 'no key on standard input';
      process.stderr.write(`error: verify -: ${why}\n`);
      process.exitCode = CLI_EXIT.usage;
      return;
    }
    const result = this.keys.verify(read.key);
    if (!result.ok) {
      process.stdout.write(`rejected: ${result.message} (${result.code})\n`);
      process.exitCode = 1;
      return;
    }
    const { kid, cus, tier, exp, scopes } = result.claims;
    const kind = result.live ? 'live' : 'test';
    process.stdout.write(
      `valid: id=${kid} customer=${cus} tier=${tier} ${scopesText(scopes)} expires=${isoFromUnix(exp)} (${kind})\n`,
    );
  }
}

/**
 * Whether the settings `a2a-keys` reads (the environment over `./.env`; the flags of `serve a2a`
 * are not seen) pass the server's own validation and serve policy. What only starting shows (a
 * spec or working directory that does not exist, a port in use) is not checked.
 * @returns `passes`, or `refused: <the server's reason>` (secret values never shown).
 */
function serverSettingsCheck(): { passes: boolean; text: string } {
  try {
    assertServePolicy(loadEnv());
    return { passes: true, text: 'passes' };
  } catch (err) {
    // A validation error is one line per setting (values JSON-quoted); any other is one line,
    // whatever a value in it holds.
    const { message } = err as Error;
    const lines =
      err instanceof ConfigValidationError
        ? message.replace(/\n/g, '\n  ')
        : message.replace(/\n/g, '\\n');
    return { passes: false, text: `refused: ${lines}` };
  }
}

/** How many revoked ids `status` lists before it only counts. */
const LISTED_REVOKED_IDS = 10;

/**
 * `text` with every control character but the line feed written as `\uXXXX`: a value echoed
 * from the settings (a host, a path) cannot move the cursor or rewrite a line of the report.
 */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is matched
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * `superqode a2a-keys status`: where the settings come from, whether a signing secret and an
 * operator token are configured, how many key ids are revoked, the scopes a key can carry, who may
 * run the harness, each invalid key setting (in the server's words, never its value) and whether
 * these settings pass the server's validation and serve policy. Never prints a secret or token
 * value; control characters of echoed values are escaped. Exit 0, or 1 when the check fails.
 */
@SubCommand({ name: 'status', description: 'Show API key configuration (no secret values)' })
export class A2aKeysStatusCommand extends KeySettingsCommand {
  constructor(private readonly keys: ApiKeysService) {
    super();
  }

  async run(): Promise<void> {
    const s = this.keys.status();
    if (!settingsUsable(s, [])) return;
    /** Why the server refuses the variable; undefined when it is valid. */
    const refuses = (name: ApiKeyVariable): string | undefined => {
      const problem = s.problems[name];
      return problem === undefined ? undefined : `${problem}; the server refuses to start`;
    };
    /** The variable's line: `invalid (…)` when the server refuses it, else `valid`. */
    const shown = (name: ApiKeyVariable, valid: string): string => {
      const problem = refuses(name);
      return problem === undefined ? valid : `invalid (${problem})`;
    };
    const state = (name: ApiKeyVariable, on: boolean): string =>
      shown(name, on ? 'configured' : 'not configured');
    const note = (name: ApiKeyVariable): string => {
      const problem = refuses(name);
      return problem === undefined ? '' : ` (${name} invalid: ${problem})`;
    };
    const keyed = s.harnessAccess === 'keyed' ? ' (keys need --scope harness)' : '';
    const access = shown('SUPERQODE_A2A_HARNESS_ACCESS', `${s.harnessAccess}${keyed}`);
    const file = envFileInUse();
    const ids = s.revokedIds;
    const more = ids.length > LISTED_REVOKED_IDS ? ', …' : '';
    const listed =
      ids.length === 0 ? '' : ` (${ids.slice(0, LISTED_REVOKED_IDS).join(', ')}${more})`;
    const revoked = shown('SUPERQODE_A2A_REVOKED_KEYS', `${ids.length}${listed}`);
    const start = serverSettingsCheck();
    const report =
      `settings: the environment${file ? `, then ${file}` : ' (no variables from ./.env)'}\n` +
      `signing secret (SUPERQODE_A2A_KEY_SECRET): ${state('SUPERQODE_A2A_KEY_SECRET', s.secretConfigured)}\n` +
      `revoked key ids (SUPERQODE_A2A_REVOKED_KEYS): ${revoked}\n` +
      `operator token (SUPERQODE_A2A_TOKEN): ${state('SUPERQODE_A2A_TOKEN', s.operatorTokenConfigured)}\n` +
      `key scopes (a2a-keys issue --scope): ${API_KEY_SCOPES.join(', ')}\n` +
      `harness access (SUPERQODE_A2A_HARNESS_ACCESS): ${access}${note('SUPERQODE_A2A_EXPOSE_HARNESS')}\n` +
      `server settings check (validation and serve policy, without serve a2a flags): ${start.text}\n`;
    process.stdout.write(printable(report));
    if (!start.passes) process.exitCode = CLI_EXIT.failed;
  }
}

/** `superqode a2a-keys`: parent of the key subcommands; alone it prints usage and exits 2. */
@Command({
  name: 'a2a-keys',
  description: 'Signed API keys for the A2A server: secret, issue, verify, status',
  subCommands: [
    A2aKeysSecretCommand,
    A2aKeysIssueCommand,
    A2aKeysVerifyCommand,
    A2aKeysStatusCommand,
  ],
})
export class A2aKeysCommand extends CommandRunner {
  async run(): Promise<void> {
    process.stdout.write('Usage: superqode a2a-keys secret|issue|verify|status (see --help)\n');
    process.exitCode = 2;
  }
}

/** Every provider of the `a2a-keys` command tree, for a CLI module's `providers`. */
export const A2A_KEYS_COMMANDS = [
  A2aKeysCommand,
  A2aKeysSecretCommand,
  A2aKeysIssueCommand,
  A2aKeysVerifyCommand,
  A2aKeysStatusCommand,
];
