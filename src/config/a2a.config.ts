import type { Env } from './env.schema';
import type { AccessSettings } from './namespaces/access.config';
import type { ServerSettings } from './namespaces/server.config';

export type { HttpServeSettings, ServerSettings } from './namespaces/server.config';
export type { HarnessServeSettings } from './namespaces/harness.config';
export type { StoreSettings } from './namespaces/stores.config';

/** A configuration the server refuses to start with (remote bind, harness access); the message names the flag. */
export class ServePolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServePolicyError';
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

/** True when `host` is a loopback name or address (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Remote-bind policy: a non-loopback host needs an explicit allowRemote.
 * @throws {Error} Naming the host and the flag/variable that allows it.
 */
export function assertBindAllowed(host: string, allowRemote: boolean): void {
  if (allowRemote || isLoopbackHost(host)) return;
  throw new ServePolicyError(
    `Refusing to bind ${host}: it is not a loopback address. ` +
      'Pass --allow-remote (SUPERQODE_A2A_ALLOW_REMOTE=true) to serve beyond this machine.',
  );
}

/**
 * True when the server chooses its port when it starts: port 0 ("any free port") and no public
 * URL, so no URL is known before then (`startServer` picks the port before building the app;
 * `--export-agent-card` refuses).
 */
export function portChosenAtStart(
  env: Pick<Env, 'SUPERQODE_A2A_PORT' | 'SUPERQODE_A2A_PUBLIC_URL'>,
): boolean {
  return env.SUPERQODE_A2A_PORT === 0 && env.SUPERQODE_A2A_PUBLIC_URL === undefined;
}

/**
 * Trusted proxy hops: the explicit setting, else none (remote binds too: with a trusted hop and
 * no proxy in front, a direct client picks its own address with X-Forwarded-For).
 * @param _allowRemote - Kept for callers; no longer changes the default (issue #11.7).
 */
export function trustedProxyHops(configured: number | undefined, _allowRemote: boolean): number {
  return configured ?? 0;
}

/** The start-up warning for trusted proxy hops >= 1, or undefined for 0. */
export function trustedProxyWarning(hops: number): string | undefined {
  if (hops < 1) return undefined;
  return (
    `This server trusts ${hops} proxy hop${hops === 1 ? '' : 's'} (--trusted-proxy-hops): ` +
    'a proxy in front of it must set X-Forwarded-For on every request, or a direct client picks its own ' +
    'address (and rate-limit window).'
  );
}

/**
 * Start-up warnings for a remote bind: a card that would advertise a loopback URL, and a server
 * where every caller is anonymous. Empty on loopback.
 */
export function remoteBindWarnings(server: ServerSettings, access: AccessSettings): string[] {
  if (server.loopback) return [];
  const warnings: string[] = [];
  if (!server.publicUrlGiven) {
    warnings.push(
      `No --public-url: the Agent Card advertises ${server.publicUrl}, which remote clients may not reach.`,
    );
  }
  if (!access.credentialsConfigured) {
    warnings.push('No --token nor SUPERQODE_A2A_KEY_SECRET: every caller is anonymous.');
  }
  return warnings;
}

/**
 * Who may run the harness skill (issue #12): `operator` (the `--token` holder), `keyed` (the
 * operator and API keys signed with the scope `harness`), `anonymous` (every caller).
 */
export type HarnessAccess = NonNullable<Env['SUPERQODE_A2A_HARNESS_ACCESS']>;

/** The harness access in force: the setting, else `operator` with exposeHarness, else `anonymous`. */
export function effectiveHarnessAccess(
  setting: HarnessAccess | undefined,
  exposeHarness: boolean,
): HarnessAccess {
  return setting ?? (exposeHarness ? 'operator' : 'anonymous');
}

/**
 * Refuses a harness access setting nobody could use, or that opens a remote bind to everyone.
 * @throws {Error} Naming the flag to add or change.
 */
function assertHarnessAccessUsable(
  access: HarnessAccess,
  loopback: boolean,
  specGiven: boolean,
  credentials: { token: boolean; keySecret: boolean },
): void {
  if (!loopback) {
    const missing = [
      specGiven ? '' : '--spec',
      access === 'operator' && !credentials.token ? '--token' : '',
    ];
    if (missing.some(Boolean)) {
      throw new ServePolicyError(
        `Refusing --expose-harness on a remote bind without ${missing.filter(Boolean).join(' and ')}: ` +
          'the harness runs commands in this checkout, so name the spec and require the operator token.',
      );
    }
    if (access === 'anonymous') {
      throw new ServePolicyError(
        'Refusing --harness-access anonymous on a remote bind: anyone who reaches the server could run ' +
          'commands in this checkout. Use --harness-access operator (the --token holder) or keyed (API keys ' +
          'issued with --scope harness).',
      );
    }
  }
  if (access === 'operator' && !credentials.token) {
    throw new ServePolicyError(
      'Refusing --harness-access operator without --token (SUPERQODE_A2A_TOKEN): nobody could run the harness.',
    );
  }
  if (access === 'keyed' && !credentials.keySecret) {
    throw new ServePolicyError(
      'Refusing --harness-access keyed without SUPERQODE_A2A_KEY_SECRET: no API key could be verified ' +
        '(create one with `superqode a2a-keys secret`).',
    );
  }
}

/**
 * The serve policy, checked once in bootstrap (before the container is built): a non-loopback
 * bind needs `--allow-remote`; a served harness needs a usable access tier (see
 * {@link assertHarnessAccessUsable}).
 * @throws {Error} Naming the flag to add or change (and its variable).
 */
export function assertServePolicy(env: Env): void {
  assertBindAllowed(env.SUPERQODE_A2A_HOST, env.SUPERQODE_A2A_ALLOW_REMOTE);
  const loopback = isLoopbackHost(env.SUPERQODE_A2A_HOST);
  const expose = env.SUPERQODE_A2A_EXPOSE_HARNESS;
  if (!env.SUPERQODE_A2A_HARNESS_ENABLED || !(loopback || expose)) return;
  assertHarnessAccessUsable(
    effectiveHarnessAccess(env.SUPERQODE_A2A_HARNESS_ACCESS, expose),
    loopback,
    env.SUPERQODE_A2A_HARNESS_SPEC !== undefined,
    {
      token: env.SUPERQODE_A2A_TOKEN !== undefined,
      keySecret: env.SUPERQODE_A2A_KEY_SECRET !== undefined,
    },
  );
}
