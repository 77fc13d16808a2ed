import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Env } from './env.schema';
import { constantTimeEquals } from '../common/auth/constant-time';

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
  throw new Error(
    `Refusing to bind ${host}: it is not a loopback address. ` +
      'Pass --allow-remote (SUPERQODE_A2A_ALLOW_REMOTE=true) to serve beyond this machine.',
  );
}

/**
 * Typed, validated server configuration (the only way services read settings).
 * Built from {@link Env} once per container.
 * @throws {Error} At construction, when a non-loopback host is asked for without allowRemote.
 */
@Injectable()
export class A2aConfig {
  readonly host: string;
  readonly port: number;
  /** Base URL advertised in the card, without a trailing slash. */
  readonly publicUrl: string;
  readonly allowRemote: boolean;
  readonly taskStorePath: string | null;
  /** PostgreSQL URL of the stores (issue #15), private: it carries the password. */
  readonly #databaseUrl: string | null;
  /** Pending PostgreSQL migrations run at start (`--migrate`). */
  readonly migrate: boolean;
  /** Redis URL of the shared rate limits (issue #15), private: it may carry a password. */
  readonly #redisUrl: string | null;
  readonly legacyV03: boolean;
  readonly cardCacheMaxAgeS: number;
  readonly maxBodyBytes: number;
  readonly shortlistEnabled: boolean;
  readonly logLevel: Env['SUPERQODE_A2A_LOG_LEVEL'];
  /** Operator token, in a private field so logging or serialising the config never shows it. */
  readonly #operatorToken: string | undefined;
  /** An API-key signing secret is configured (the secret itself stays in ApiKeysService). */
  readonly keySecretConfigured: boolean;
  /** Operator token and API-key secret, for the harness's secret scrubber only. */
  readonly #secrets: readonly string[];
  readonly allowAnonymous: boolean;
  /** Per-minute request ceilings per caller; 0 = off. */
  readonly anonymousPerMinute: number;
  readonly keyedPerMinute: number;
  /** Per-day ceiling across all callers; 0 = off. */
  readonly globalPerDay: number;
  /** Share (0..1) of {@link globalPerDay} that anonymous callers together may use. */
  readonly anonymousShareOfDay: number;
  /** Failed authentications per client address per minute; past it, 429 before verifying; 0 = off. */
  readonly authFailuresPerMinute: number;
  /** X-Forwarded-For hops trusted for the client address (0 unless set, remote binds included). */
  readonly trustedProxyHops: number;
  /** Read keyed/operator shortlist requests with the model (else the keyword parser only). */
  readonly understandRequests: boolean;
  /** Model reading budget, ms. */
  readonly understandTimeoutMs: number;
  /** Harness skill settings (issue #5). */
  readonly harness: HarnessServeSettings;
  /** Transport guards and limits: origins, hosts, JSON depth, timeouts, connection cap (issues #11, #12). */
  readonly http: HttpServeSettings;
  /** Task store lifecycle: ownership leases, retention, list caps (issues #11, #13). */
  readonly store: StoreSettings;

  constructor(config: ConfigService) {
    const env = <K extends keyof Env>(key: K): Env[K] => config.get(key) as Env[K];
    this.host = env('SUPERQODE_A2A_HOST');
    this.port = env('SUPERQODE_A2A_PORT');
    this.allowRemote = env('SUPERQODE_A2A_ALLOW_REMOTE');
    assertBindAllowed(this.host, this.allowRemote);
    const fallbackHost =
      this.host.includes(':') && !this.host.startsWith('[') ? `[${this.host}]` : this.host;
    const url = env('SUPERQODE_A2A_PUBLIC_URL');
    this.publicUrl = (url ?? `http://${fallbackHost}:${this.port}`).trim().replace(/\/+$/, '');
    this.taskStorePath = env('SUPERQODE_A2A_TASK_STORE_ENABLED')
      ? env('SUPERQODE_A2A_TASK_STORE_PATH')
      : null;
    this.#databaseUrl = env('SUPERQODE_A2A_DATABASE_URL') ?? null;
    this.migrate = env('SUPERQODE_A2A_MIGRATE');
    this.#redisUrl = env('SUPERQODE_A2A_REDIS_URL') ?? null;
    this.legacyV03 = env('SUPERQODE_A2A_LEGACY_V03');
    this.cardCacheMaxAgeS = env('SUPERQODE_A2A_CARD_CACHE_MAX_AGE_S');
    this.maxBodyBytes = env('SUPERQODE_A2A_MAX_BODY_BYTES');
    this.shortlistEnabled = env('SUPERQODE_A2A_SHORTLIST_ENABLED');
    this.logLevel = env('SUPERQODE_A2A_LOG_LEVEL');
    this.#operatorToken = env('SUPERQODE_A2A_TOKEN');
    this.keySecretConfigured = env('SUPERQODE_A2A_KEY_SECRET') !== undefined;
    this.#secrets = [this.#operatorToken, env('SUPERQODE_A2A_KEY_SECRET')].filter(
      (s): s is string => !!s,
    );
    this.allowAnonymous = env('SUPERQODE_A2A_ALLOW_ANONYMOUS');
    this.anonymousPerMinute = env('SUPERQODE_A2A_ANONYMOUS_PER_MINUTE');
    this.keyedPerMinute = env('SUPERQODE_A2A_KEYED_PER_MINUTE');
    this.globalPerDay = env('SUPERQODE_A2A_GLOBAL_PER_DAY');
    this.anonymousShareOfDay = env('SUPERQODE_A2A_ANONYMOUS_SHARE_OF_DAY');
    this.authFailuresPerMinute = env('SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE');
    this.trustedProxyHops = trustedProxyHops(
      env('SUPERQODE_A2A_TRUSTED_PROXY_HOPS'),
      this.allowRemote,
    );
    this.understandRequests = env('SUPERQODE_A2A_UNDERSTAND_REQUESTS');
    this.understandTimeoutMs = env('SUPERQODE_A2A_UNDERSTAND_TIMEOUT_MS');
    this.harness = harnessSettings(env, isLoopbackHost(this.host), {
      token: this.operatorTokenConfigured,
      keySecret: this.keySecretConfigured,
    });
    this.http = {
      corsOrigins: env('SUPERQODE_A2A_CORS_ORIGINS'),
      allowedHosts: env('SUPERQODE_A2A_ALLOWED_HOSTS'),
      maxJsonDepth: env('SUPERQODE_A2A_MAX_JSON_DEPTH'),
      headersTimeoutMs: env('SUPERQODE_A2A_HEADERS_TIMEOUT_MS'),
      requestTimeoutMs: env('SUPERQODE_A2A_REQUEST_TIMEOUT_MS'),
      keepAliveTimeoutMs: env('SUPERQODE_A2A_KEEP_ALIVE_TIMEOUT_MS'),
      sseKeepAliveMs: env('SUPERQODE_A2A_SSE_KEEPALIVE_MS'),
      maxConnectionsPerAddress: env('SUPERQODE_A2A_MAX_CONNECTIONS_PER_ADDRESS'),
    };
    this.store = storeSettings(env);
  }

  /** The operator token and API-key secret when set, to scrub from tool output (never log). */
  secretValues(): readonly string[] {
    return this.#secrets;
  }

  /**
   * PostgreSQL URL of the task store, or null (SQLite, or memory with `--no-task-store`).
   * A getter, so serialising the config never shows the password.
   */
  get taskDatabaseUrl(): string | null {
    return this.taskStorePath === null ? null : this.#databaseUrl;
  }

  /** Redis URL of the rate-limit windows shared by all instances, or null (counted per instance). */
  get redisUrl(): string | null {
    return this.#redisUrl;
  }

  /** PostgreSQL URL of the harness ledger, or null (SQLite, or memory when not served). */
  get harnessDatabaseUrl(): string | null {
    return this.harness.served && this.harness.storePath !== null ? this.#databaseUrl : null;
  }

  /** An operator token is configured. */
  get operatorTokenConfigured(): boolean {
    return this.#operatorToken !== undefined;
  }

  /** Whether `candidate` is the operator token (constant-time; false when none is configured). */
  matchesOperatorToken(candidate: string): boolean {
    return this.#operatorToken !== undefined && constantTimeEquals(candidate, this.#operatorToken);
  }

  /** A credential can be presented (operator token or API keys): the card advertises bearer auth. */
  get credentialsConfigured(): boolean {
    return this.operatorTokenConfigured || this.keySecretConfigured;
  }
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
export function remoteBindWarnings(config: A2aConfig, publicUrlGiven: boolean): string[] {
  if (isLoopbackHost(config.host)) return [];
  const warnings: string[] = [];
  if (!publicUrlGiven) {
    warnings.push(
      `No --public-url: the Agent Card advertises ${config.publicUrl}, which remote clients may not reach.`,
    );
  }
  if (!config.credentialsConfigured) {
    warnings.push('No --token nor SUPERQODE_A2A_KEY_SECRET: every caller is anonymous.');
  }
  return warnings;
}

/** HTTP-level guards and limits (see README, configuration). */
export interface HttpServeSettings {
  /** Origins (lowercase `scheme://host[:port]`) browsers may call the RPC routes from. */
  readonly corsOrigins: readonly string[];
  /** `Host` names accepted besides loopback names and the public URL's host (lowercase). */
  readonly allowedHosts: readonly string[];
  /** Deepest nesting of objects/arrays in a request body. */
  readonly maxJsonDepth: number;
  /** Request head deadline, ms. */
  readonly headersTimeoutMs: number;
  /** Whole-request (head + body) deadline, ms. */
  readonly requestTimeoutMs: number;
  /** Idle keep-alive connection lifetime, ms. */
  readonly keepAliveTimeoutMs: number;
  /** Interval of the SSE `: keep-alive` comment on every stream, ms (proxies cut silent streams). */
  readonly sseKeepAliveMs: number;
  /** Open connections per client address; 0 = no cap. */
  readonly maxConnectionsPerAddress: number;
}

/** Where and how the harness skill runs. */
export interface HarnessServeSettings {
  /** The skill is served by this deployment (enabled, and loopback or exposed). */
  readonly served: boolean;
  /** Who may run it (`--harness-access`); a caller below it gets 401/403. */
  readonly access: HarnessAccess;
  /** Spec file or built-in template name. */
  readonly spec: string;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly baseUrl: string | undefined;
  readonly workingDir: string;
  /** Ledger file, or null for memory. */
  readonly storePath: string | null;
  /** Reachable beyond this machine: a non-loopback bind, or allowRemote (e.g. behind a proxy). */
  readonly exposed: boolean;
  /** An exposed server may serve a spec whose sandbox does not resolve to bwrap. */
  readonly allowUnsandboxed: boolean;
}

/**
 * Harness policy: loopback binds serve it; a remote bind serves it only with exposeHarness, which
 * needs an explicit spec. Who may run it ({@link HarnessAccess}): the setting, else `operator` with
 * exposeHarness and `anonymous` without (issue #12).
 * @throws {Error} When the harness is served: exposeHarness on a remote bind without a spec;
 *   `anonymous` on a remote bind; `operator` without a token; `keyed` without a key secret.
 */
function harnessSettings(
  env: <K extends keyof Env>(key: K) => Env[K],
  loopback: boolean,
  credentials: { token: boolean; keySecret: boolean },
): HarnessServeSettings {
  const expose = env('SUPERQODE_A2A_EXPOSE_HARNESS');
  const specGiven = env('SUPERQODE_A2A_HARNESS_SPEC');
  const access = effectiveHarnessAccess(env('SUPERQODE_A2A_HARNESS_ACCESS'), expose);
  const served = env('SUPERQODE_A2A_HARNESS_ENABLED') && (loopback || expose);
  if (served) assertHarnessAccessUsable(access, loopback, specGiven !== undefined, credentials);
  const store = env('SUPERQODE_A2A_HARNESS_STORE_PATH');
  return {
    served,
    access,
    spec: specGiven ?? 'coding',
    provider: env('SUPERQODE_A2A_HARNESS_PROVIDER'),
    model: env('SUPERQODE_A2A_HARNESS_MODEL'),
    baseUrl: env('SUPERQODE_A2A_HARNESS_BASE_URL'),
    workingDir: env('SUPERQODE_A2A_WORKING_DIR'),
    storePath: store === ':memory:' ? null : store,
    exposed: !loopback || env('SUPERQODE_A2A_ALLOW_REMOTE'),
    allowUnsandboxed: env('SUPERQODE_A2A_ALLOW_UNSANDBOXED_HARNESS'),
  };
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
      throw new Error(
        `Refusing --expose-harness on a remote bind without ${missing.filter(Boolean).join(' and ')}: ` +
          'the harness runs commands in this checkout, so name the spec and require the operator token.',
      );
    }
    if (access === 'anonymous') {
      throw new Error(
        'Refusing --harness-access anonymous on a remote bind: anyone who reaches the server could run ' +
          'commands in this checkout. Use --harness-access operator (the --token holder) or keyed (API keys ' +
          'issued with --scope harness).',
      );
    }
  }
  if (access === 'operator' && !credentials.token) {
    throw new Error(
      'Refusing --harness-access operator without --token (SUPERQODE_A2A_TOKEN): nobody could run the harness.',
    );
  }
  if (access === 'keyed' && !credentials.keySecret) {
    throw new Error(
      'Refusing --harness-access keyed without SUPERQODE_A2A_KEY_SECRET: no API key could be verified ' +
        '(create one with `superqode a2a-keys secret`).',
    );
  }
}

/** Task store lifecycle settings (ms, counts, bytes). */
export interface StoreSettings {
  /** Lease of owned work, ms. */
  readonly leaseMs: number;
  /** Heartbeat period, ms (clamped below a third of the lease). */
  readonly heartbeatMs: number;
  /** Row cap of the durable store. */
  readonly maxTasks: number;
  /** Finished-task retention, days; 0 keeps them. */
  readonly taskTtlDays: number;
  /** ListTasks page cap. */
  readonly maxPageSize: number;
  /** ListTasks stored-JSON cap, bytes. */
  readonly maxListReplyBytes: number;
}

function storeSettings(env: <K extends keyof Env>(key: K) => Env[K]): StoreSettings {
  const leaseMs = env('SUPERQODE_A2A_LEASE_MS');
  return {
    leaseMs,
    // Two heartbeats may be missed (a busy event loop) before the lease runs out.
    heartbeatMs: Math.min(env('SUPERQODE_A2A_HEARTBEAT_MS'), Math.floor(leaseMs / 3)),
    maxTasks: env('SUPERQODE_A2A_MAX_TASKS'),
    taskTtlDays: env('SUPERQODE_A2A_TASK_TTL_DAYS'),
    maxPageSize: env('SUPERQODE_A2A_MAX_PAGE_SIZE'),
    maxListReplyBytes: env('SUPERQODE_A2A_MAX_LIST_REPLY_BYTES'),
  };
}
