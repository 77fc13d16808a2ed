import { isIPv6 } from 'node:net';
import { z } from 'zod';
import { ConfigValidationError, settingProblem } from './config-errors';
import { withoutBlanks } from './process-env';
import { MAX_HEAP_GROWTH_PERCENT, MIN_HEAP_GROWTH_PERCENT } from '../common/runtime/heap-growth';

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes' || v === 'on');

/** What a bind address with brackets must be. */
const BRACKETS_HOLD_IPV6 = 'brackets hold an IPv6 address only (e.g. [::1])';

/**
 * An IPv6 address in its canonical text (RFC 5952, as WHATWG URL writes it:
 * `0:0:0:0:0:0:0:1` → `::1`), so that the loopback check knows every spelling; one with a zone
 * (`fe80::1%eth0`) as given.
 */
function canonicalIpv6(address: string): string {
  return address.includes('%') ? address : new URL(`http://[${address}]`).hostname.slice(1, -1);
}

/**
 * An address to bind: a name or an IP literal. An IPv6 literal may be written as in a URL
 * (`[::1]`); the brackets are dropped, as `listen()` takes the bare address (RFC 3986 §3.2.2), and
 * any other use of brackets is refused.
 */
const bindAddress = z
  .string()
  .trim()
  .min(1)
  .refine((h) => !/[[\]]/.test(h) || (/^\[[^\]]*\]$/.test(h) && isIPv6(h.slice(1, -1))), {
    message: BRACKETS_HOLD_IPV6,
  })
  .transform((h) => {
    const bare = h.startsWith('[') ? h.slice(1, -1) : h;
    return isIPv6(bare) ? canonicalIpv6(bare) : bare;
  });

/** An API key id (`kid`), as `a2a-keys issue` prints it. */
const KEY_ID = /^[0-9a-f]{12}$/;

/**
 * Every environment variable the server reads, with types, ranges and defaults.
 * Validated once at boot by {@link validateEnv}; an invalid value stops the process.
 * CLI flags of `superqode serve a2a` are translated to these names, so both paths share it.
 */
export const envSchema = z.object({
  /** Interface to bind; non-loopback needs SUPERQODE_A2A_ALLOW_REMOTE. */
  SUPERQODE_A2A_HOST: bindAddress.default('127.0.0.1'),
  /** TCP port, 1-65535 (0 = any free port; the card then advertises the port chosen). */
  SUPERQODE_A2A_PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  /** Absolute http(s) base URL advertised in the Agent Card; default http://<host>:<port>. */
  SUPERQODE_A2A_PUBLIC_URL: z.string().trim().url().optional(),
  /** Allow binding outside loopback (127.0.0.1, ::1, localhost). */
  SUPERQODE_A2A_ALLOW_REMOTE: bool.default(false),
  /** SQLite file of the durable task store; directory is created if missing. */
  SUPERQODE_A2A_TASK_STORE_PATH: z.string().trim().min(1).default('.superqode/a2a/tasks.sqlite3'),
  /**
   * PostgreSQL URL (`postgres://user:password@host:port/db`) of the task store and the harness
   * ledger instead of the SQLite files (`--database-url`, issue #15); its password is never logged.
   */
  SUPERQODE_A2A_DATABASE_URL: z
    .string()
    .trim()
    .refine(
      (v) => /^postgres(ql)?:\/\/[^\s]+$/.test(v),
      'must be a postgres:// or postgresql:// URL',
    )
    .optional(),
  /**
   * Redis URL (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS) holding the rate-limit
   * windows and the daily ceiling shared by every instance (`--redis-url`, issue #15); its password
   * is never logged. Unset: each instance counts alone.
   */
  SUPERQODE_A2A_REDIS_URL: z
    .string()
    .trim()
    .refine((v) => /^rediss?:\/\/[^\s]+$/.test(v), 'must be a redis:// or rediss:// URL')
    .optional(),
  /** Run pending PostgreSQL migrations at start (`serve --migrate`); else `superqode db migrate` does. */
  SUPERQODE_A2A_MIGRATE: bool.default(false),
  /** false keeps tasks in memory only (`--no-task-store`). */
  SUPERQODE_A2A_TASK_STORE_ENABLED: bool.default(true),
  /** Ownership lease of WORKING tasks and running ledger runs, ms: orphaned once not renewed for this long. */
  SUPERQODE_A2A_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).default(30_000),
  /** Heartbeat period renewing this server's leases, ms (must be below the lease). */
  SUPERQODE_A2A_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Durable store row cap; the oldest finished tasks are pruned in the background (`--max-tasks`). */
  SUPERQODE_A2A_MAX_TASKS: z.coerce.number().int().min(1).default(100_000),
  /** Finished tasks not updated for this many days are pruned (`--task-ttl-days`; 0 = kept). */
  SUPERQODE_A2A_TASK_TTL_DAYS: z.coerce.number().min(0).max(36_500).default(30),
  /** Most tasks one ListTasks page returns (`--max-page-size`; the SDK refuses above 100). */
  SUPERQODE_A2A_MAX_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(100),
  /** Stored task JSON one ListTasks page may carry, bytes; the page ends early with a token. */
  SUPERQODE_A2A_MAX_LIST_REPLY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** Serve and advertise the A2A 0.3 JSON-RPC interface. */
  SUPERQODE_A2A_LEGACY_V03: bool.default(true),
  /** Agent Card `Cache-Control: max-age`, seconds (0 = no-cache). */
  SUPERQODE_A2A_CARD_CACHE_MAX_AGE_S: z.coerce.number().int().min(0).max(31_536_000).default(300),
  /** Largest accepted request body, bytes; larger bodies get 413. */
  SUPERQODE_A2A_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1_048_576),
  /** Serve the harness-shortlist skill. */
  SUPERQODE_A2A_SHORTLIST_ENABLED: bool.default(true),
  /** Operator token (`--token`); compared in constant time; never logged nor shown in the card. */
  SUPERQODE_A2A_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** HMAC secret that signs API keys (`a2a-keys secret` makes one); absent = every key rejected. */
  SUPERQODE_A2A_KEY_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Revoked API key ids (`kid`: 12 hex digits, as `a2a-keys issue` prints them), separated by
   * commas or white space; upper case is read as lower. Any other entry is refused: a list that
   * revoked nothing while it looked set would let the keys it names in.
   */
  SUPERQODE_A2A_REVOKED_KEYS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((s) => s.toLowerCase()),
    )
    .superRefine((ids, ctx) => {
      const bad = ids.findIndex((id) => !KEY_ID.test(id));
      // The entry is not shown: a key or secret pasted here by mistake must not reach a log.
      if (bad >= 0)
        ctx.addIssue({
          code: 'custom',
          message:
            'must be key ids (12 hex digits, as `a2a-keys issue` prints them) separated by ' +
            `commas or white space; entry ${bad + 1} is not one`,
        });
    }),
  /** Serve callers without a credential (anonymous tier). */
  SUPERQODE_A2A_ALLOW_ANONYMOUS: bool.default(true),
  /** Requests per minute per anonymous caller (0 = no limit). */
  SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: z.coerce.number().int().min(0).default(10),
  /** Requests per minute per keyed caller (0 = no limit). */
  SUPERQODE_A2A_KEYED_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  /** Requests per UTC day across all callers, operator included (0 = no limit). */
  SUPERQODE_A2A_GLOBAL_PER_DAY: z.coerce.number().int().min(0).default(5000),
  /** Share (0..1) of the daily ceiling that anonymous callers together may use (1 = no separate cap). */
  SUPERQODE_A2A_ANONYMOUS_SHARE_OF_DAY: z.coerce.number().min(0).max(1).default(0.5),
  /** Failed authentications per client address per minute before 429 answers first (0 = no limit). */
  SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).default(10),
  /** Proxy hops whose X-Forwarded-For is trusted (default 0; a warning at start when >= 1). */
  SUPERQODE_A2A_TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).optional(),
  /** Serve the `superqode-harness` skill (loopback; remote binds also need EXPOSE_HARNESS). */
  SUPERQODE_A2A_HARNESS_ENABLED: bool.default(true),
  /** HarnessSpec file, or a built-in template name (`coding`, `read-only`, `no-tool`); default coding. */
  SUPERQODE_A2A_HARNESS_SPEC: z.string().trim().min(1).optional(),
  /** Model provider of harness runs: openai, anthropic, google, openai-compatible. */
  SUPERQODE_A2A_HARNESS_PROVIDER: z
    .enum(['openai', 'anthropic', 'google', 'openai-compatible'])
    .optional(),
  /** Model id of harness runs (else the spec's model_policy.primary). */
  SUPERQODE_A2A_HARNESS_MODEL: z.string().trim().min(1).optional(),
  /** Base URL of an OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp). */
  SUPERQODE_A2A_HARNESS_BASE_URL: z.string().trim().url().optional(),
  /** The checkout harness runs work in. */
  SUPERQODE_A2A_WORKING_DIR: z.string().trim().min(1).default('.'),
  /** SQLite file of the harness run ledger (separate from the task store); `:memory:` for tests. */
  SUPERQODE_A2A_HARNESS_STORE_PATH: z
    .string()
    .trim()
    .min(1)
    .default('.superqode/a2a/harness.sqlite3'),
  /** Serve the harness skill on a remote bind (needs a spec and an operator token). */
  SUPERQODE_A2A_EXPOSE_HARNESS: bool.default(false),
  /** Who may run the harness skill: operator, keyed (+ keys with scope harness), anonymous (issue #12). */
  SUPERQODE_A2A_HARNESS_ACCESS: z.enum(['operator', 'keyed', 'anonymous']).optional(),
  /** A remote bind may serve the harness with a spec whose sandbox is not bwrap (warned at every start). */
  SUPERQODE_A2A_ALLOW_UNSANDBOXED_HARNESS: bool.default(false),
  /** Keyed and operator callers' shortlist requests are read by the harness model first. */
  SUPERQODE_A2A_UNDERSTAND_REQUESTS: bool.default(true),
  /** Time the model gets to read a shortlist request before the keyword parser answers, ms. */
  SUPERQODE_A2A_UNDERSTAND_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(10_000),
  /** Browser origins (`scheme://host[:port]`) allowed to call the RPC routes, comma-separated (`--cors-origin`); default none. */
  SUPERQODE_A2A_CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim().replace(/\/+$/, '').toLowerCase())
        .filter(Boolean),
    ),
  /** Extra `Host` header names accepted besides loopback and the public URL's host, comma-separated (`--allowed-host`). */
  SUPERQODE_A2A_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Deepest JSON nesting (objects and arrays) a request body may have; deeper bodies get -32602 / 400. */
  SUPERQODE_A2A_MAX_JSON_DEPTH: z.coerce.number().int().min(8).max(1000).default(64),
  /** Time a client has to send the request head (line and headers), ms; then 408. */
  SUPERQODE_A2A_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Time a client has to send the whole request, body included, ms; then 408. Streams in reply are not cut. */
  SUPERQODE_A2A_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Interval of the `: keep-alive` comment every SSE stream sends while it waits, ms (issue #16). */
  SUPERQODE_A2A_SSE_KEEPALIVE_MS: z.coerce.number().int().min(10).max(600_000).default(15_000),
  /** Idle time before a kept-alive connection is closed, ms. */
  SUPERQODE_A2A_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Open connections allowed per client address (0 = no cap); more are answered 503 and closed. */
  SUPERQODE_A2A_MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(64),
  /**
   * Old-generation growth V8 allows past the live heap before a full collection, percent
   * (100 = twice the live heap; 0 = V8's own factor). Unset: 100 where V8's own would reach 4×
   * (heap limit 2 GiB or more), V8's own below. Applied by a server that is its own process
   * (`start:prod`, `serve a2a`); see `heapGrowthPercent`.
   */
  SUPERQODE_A2A_HEAP_GROWTH_PERCENT: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_HEAP_GROWTH_PERCENT)
    .refine(
      (v) => v === 0 || v >= MIN_HEAP_GROWTH_PERCENT,
      `must be 0 (V8's own factor) or at least ${MIN_HEAP_GROWTH_PERCENT}`,
    )
    .optional(),
  /** Nest logger levels at or above this one are printed. */
  SUPERQODE_A2A_LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  /** Interface of a second listener serving only `GET /metrics`, without a credential (`--metrics-host`). */
  SUPERQODE_A2A_METRICS_HOST: bindAddress.optional(),
  /** Port of that listener (`--metrics-port`; 0 = any free port). */
  SUPERQODE_A2A_METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** Log lines as JSON (`json`), one readable line (`pretty`), or pretty on a TTY only (`auto`). */
  SUPERQODE_A2A_LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
});

/** The validated configuration object (defaults applied, strings coerced). */
export type Env = z.infer<typeof envSchema>;
/** Raw variables as they arrive from the environment or CLI flags. */
export type RawEnv = Partial<Record<keyof Env, string | number | boolean | undefined>>;

/**
 * Validates raw variables against {@link envSchema}; a variable set to an empty or blank string
 * counts as unset (its default applies; see {@link withoutBlanks}).
 * @param raw - `process.env` merged with CLI overrides (unknown keys are ignored).
 * @returns The typed configuration.
 * @throws {ConfigValidationError} One issue per invalid variable (`NAME="value": problem`).
 */
export function validateEnv(raw: Record<string, unknown>): Env {
  const r = envSchema.safeParse(withoutBlanks(raw));
  if (r.success) return r.data;
  throw ConfigValidationError.fromZod(r.error.issues, raw);
}

/** What {@link validateEnvVariables} found: each variable's value, and the invalid ones' problems. */
export interface EnvVariablesRead<K extends keyof Env> {
  /** Valid variables as {@link validateEnv} gives them (defaults applied); invalid ones raw. */
  readonly values: Partial<Record<K, unknown>>;
  /** What is wrong with each invalid variable, in the server's words (never its value). */
  readonly problems: Partial<Record<K, string>>;
}

/**
 * Validates only `names`, each on its own, as {@link validateEnv} would (blank = unset): for a
 * command that reads a few settings (`a2a-keys`), which an unrelated invalid one must not stop
 * and which reports an invalid one of its own instead of failing.
 * @param raw - The process environment with the env file ({@link processEnv}).
 */
export function validateEnvVariables<K extends keyof Env>(
  names: readonly K[],
  raw: Record<string, unknown>,
): EnvVariablesRead<K> {
  const given = withoutBlanks(raw);
  const values: Partial<Record<K, unknown>> = {};
  const problems: Partial<Record<K, string>> = {};
  for (const name of names) {
    const r = envSchema.shape[name].safeParse(given[name]);
    if (r.success) values[name] = r.data;
    else {
      values[name] = given[name];
      problems[name] = r.error.issues.map(settingProblem).join('; ');
    }
  }
  return { values, problems };
}
