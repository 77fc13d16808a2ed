import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { ConfigValidationError } from '../../../config/config-errors';
import { RawEnv } from '../../../config/env.schema';
import { processEnv, useEnvFile } from '../../../config/process-env';
import { serveSettingNamer } from './serve-flags';

/** Flags of `superqode serve a2a`, as parsed by nest-commander. */
interface ServeA2aOptions {
  host?: string;
  port?: number | string;
  publicUrl?: string;
  taskStore?: string | boolean;
  databaseUrl?: string;
  migrate?: boolean;
  redisUrl?: string;
  legacy?: boolean;
  cardCacheMaxAge?: number | string;
  allowRemote?: boolean;
  token?: string;
  anonymous?: boolean;
  anonymousPerMinute?: number | string;
  keyedPerMinute?: number | string;
  globalPerDay?: number | string;
  trustedProxyHops?: number | string;
  authFailuresPerMinute?: number | string;
  anonymousShareOfDay?: number | string;
  exportAgentCard?: string;
  spec?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  workingDir?: string;
  harnessStore?: string;
  maxTasks?: number | string;
  taskTtlDays?: number | string;
  maxPageSize?: number | string;
  exposeHarness?: boolean;
  harnessAccess?: string;
  allowUnsandboxedHarness?: boolean;
  shortlist?: boolean;
  corsOrigin?: string[];
  allowedHost?: string[];
  maxJsonDepth?: number | string;
  headersTimeoutMs?: number | string;
  requestTimeoutMs?: number | string;
  keepAliveTimeoutMs?: number | string;
  maxConnectionsPerAddress?: number | string;
  envFile?: string;
  metricsHost?: string;
  metricsPort?: number | string;
}

/**
 * `superqode serve a2a`: starts the A2A server with flags over the environment, then runs until
 * SIGINT/SIGTERM (Nest shutdown hooks close the stores). Flags map 1:1 to the env schema, so the
 * same validation applies (bad values stop it with a message naming the flag, or the variable
 * when the environment gave the value).
 */
@SubCommand({
  name: 'a2a',
  description: 'Serve SuperQode as an A2A 1.0 agent (JSON-RPC 1.0 + 0.3, HTTP+JSON)',
})
export class ServeA2aCommand extends CommandRunner {
  async run(_args: string[], options: ServeA2aOptions = {}): Promise<void> {
    const env = toEnv(options);
    try {
      await this.serve(env, options.exportAgentCard);
    } catch (err) {
      // Bad values are reported under the flag the user typed, or the variable (issue #19).
      if (err instanceof ConfigValidationError)
        throw new Error(err.describe(serveSettingNamer(env)));
      throw err;
    }
  }

  private async serve(env: RawEnv, exportFile: string | undefined): Promise<void> {
    // Loaded on use: the server's module graph registers its TypeORM data sources ('tasks',
    // 'harness') when imported, which must not happen for other commands (`harness run` has its own).
    if (exportFile) {
      const { exportAgentCard } = await import('../../agent-card/export-agent-card');
      await exportAgentCard(env, exportFile);
      process.stdout.write(`Agent Card written to ${exportFile}\n`);
      return;
    }
    const { OWN_PROCESS, startServer } = await import('../../../bootstrap');
    // Errors before the configuration is validated come out in the server's log format too.
    const { useProcessLoggerForNest } = await import('../../observability/process-logger');
    useProcessLoggerForNest((processEnv().NO_COLOR ?? '') !== '');
    await startServer(env, {}, OWN_PROCESS); // logs the start-up banner
    await new Promise<void>(() => undefined); // served until a signal ends the process
  }

  @Option({
    flags: '--env-file <path>',
    description: 'read variables from this file instead of ./.env (set variables win)',
  })
  parseEnvFile(v: string): string {
    useEnvFile(v);
    return v;
  }

  @Option({
    flags: '--metrics-host <host>',
    description: 'also serve GET /metrics, without a credential, on this interface',
  })
  parseMetricsHost(v: string): string {
    return v;
  }

  @Option({ flags: '--metrics-port <port>', description: 'port of --metrics-host (default 9464)' })
  parseMetricsPort(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({ flags: '--host <host>', description: 'interface to bind (default 127.0.0.1)' })
  parseHost(v: string): string {
    return v;
  }

  @Option({ flags: '--port <port>', description: 'TCP port (default 8000)' })
  parsePort(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({ flags: '--public-url <url>', description: 'base URL advertised in the Agent Card' })
  parsePublicUrl(v: string): string {
    return v;
  }

  @Option({
    flags: '--task-store <path>',
    description: 'SQLite file for tasks (default .superqode/a2a/tasks.sqlite3)',
  })
  parseTaskStore(v: string): string {
    return v;
  }

  @Option({
    flags: '--database-url <url>',
    description: 'PostgreSQL URL of the task store and the ledger (or SUPERQODE_A2A_DATABASE_URL)',
  })
  parseDatabaseUrl(v: string): string {
    return v;
  }

  @Option({
    flags: '--redis-url <url>',
    description:
      'Redis URL of the rate limits shared by all instances (or SUPERQODE_A2A_REDIS_URL)',
  })
  parseRedisUrl(v: string): string {
    return v;
  }

  @Option({
    flags: '--migrate',
    description: 'run pending PostgreSQL migrations at start (else: superqode db migrate)',
  })
  parseMigrate(): boolean {
    return true;
  }

  @Option({ flags: '--no-task-store', description: 'keep tasks in memory only' })
  parseNoTaskStore(): boolean {
    return false;
  }

  @Option({
    flags: '--no-legacy',
    description: 'do not serve or advertise the A2A 0.3 JSON-RPC interface',
  })
  parseNoLegacy(): boolean {
    return false;
  }

  @Option({
    flags: '--card-cache-max-age <seconds>',
    description: 'Agent Card Cache-Control max-age (default 300)',
  })
  parseCardCacheMaxAge(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({ flags: '--allow-remote', description: 'allow binding a non-loopback address' })
  parseAllowRemote(): boolean {
    return true;
  }

  @Option({
    flags: '--token <token>',
    description: 'operator token (or SUPERQODE_A2A_TOKEN); 16+ characters',
  })
  parseToken(v: string): string {
    return v;
  }

  @Option({ flags: '--no-anonymous', description: 'refuse callers without a credential (401)' })
  parseNoAnonymous(): boolean {
    return false;
  }

  @Option({
    flags: '--anonymous-per-minute <n>',
    description: 'requests per minute per anonymous caller (0 = off)',
  })
  parseAnonymousPerMinute(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--keyed-per-minute <n>',
    description: 'requests per minute per API key (0 = off)',
  })
  parseKeyedPerMinute(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--global-per-day <n>',
    description: 'requests per day across all callers (0 = off)',
  })
  parseGlobalPerDay(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--anonymous-share-of-day <share>',
    description:
      'share (0..1) of --global-per-day anonymous callers may use together (default 0.5)',
  })
  parseAnonymousShareOfDay(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--auth-failures-per-minute <n>',
    description: 'failed authentications per address per minute before 429 (0 = off)',
  })
  parseAuthFailuresPerMinute(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--trusted-proxy-hops <n>',
    description: 'X-Forwarded-For hops to trust (default 0; a proxy in front must set the header)',
  })
  parseTrustedProxyHops(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--spec <file>',
    description:
      'HarnessSpec file or built-in template (coding, read-only, no-tool); default coding',
  })
  parseSpec(v: string): string {
    return v;
  }

  @Option({
    flags: '--provider <name>',
    description: 'harness model provider: openai, anthropic, google, openai-compatible',
  })
  parseProvider(v: string): string {
    return v;
  }

  @Option({ flags: '--model <id>', description: 'harness model id' })
  parseModel(v: string): string {
    return v;
  }

  @Option({
    flags: '--base-url <url>',
    description: 'OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp)',
  })
  parseBaseUrl(v: string): string {
    return v;
  }

  @Option({
    flags: '--working-dir <dir>',
    description: 'checkout the harness works in (default .)',
  })
  parseWorkingDir(v: string): string {
    return v;
  }

  @Option({
    flags: '--harness-store <path>',
    description: 'SQLite file of the run ledger (default .superqode/a2a/harness.sqlite3)',
  })
  parseHarnessStore(v: string): string {
    return v;
  }

  @Option({
    flags: '--max-tasks <n>',
    description: 'durable task store row cap; oldest finished tasks pruned (default 100000)',
  })
  parseMaxTasks(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--task-ttl-days <days>',
    description: 'prune finished tasks not updated for this long (default 30; 0 keeps them)',
  })
  parseTaskTtlDays(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--max-page-size <n>',
    description: 'most tasks per ListTasks page (1-100, default 100)',
  })
  parseMaxPageSize(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--expose-harness',
    description:
      'serve the harness skill on a remote bind (needs --spec; --token unless --harness-access keyed)',
  })
  parseExposeHarness(): boolean {
    return true;
  }

  @Option({
    flags: '--harness-access <tier>',
    description:
      'who may run the harness: operator, keyed, anonymous (default anonymous on loopback, operator with --expose-harness)',
  })
  parseHarnessAccess(v: string): string {
    return v;
  }

  @Option({
    flags: '--allow-unsandboxed-harness',
    description:
      'on a remote bind, serve the harness with a spec whose sandbox is not bwrap (warned at every start)',
  })
  parseAllowUnsandboxedHarness(): boolean {
    return true;
  }

  @Option({ flags: '--no-shortlist', description: 'serve the harness skill alone' })
  parseNoShortlist(): boolean {
    return false;
  }

  @Option({
    flags: '--cors-origin <origin>',
    description: 'browser origin allowed to call the RPC routes (repeatable; default none)',
  })
  parseCorsOrigin(v: string, previous: string[] = []): string[] {
    return [...previous, v];
  }

  @Option({
    flags: '--allowed-host <host>',
    description: 'Host header accepted besides loopback and the --public-url host (repeatable)',
  })
  parseAllowedHost(v: string, previous: string[] = []): string[] {
    return [...previous, v];
  }

  @Option({
    flags: '--max-json-depth <n>',
    description: 'deepest nesting of a request body (default 64)',
  })
  parseMaxJsonDepth(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--headers-timeout-ms <ms>',
    description: 'time to send the request head (default 10000)',
  })
  parseHeadersTimeoutMs(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--request-timeout-ms <ms>',
    description: 'time to send the whole request, body included (default 30000)',
  })
  parseRequestTimeoutMs(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--keep-alive-timeout-ms <ms>',
    description: 'idle keep-alive connection lifetime (default 5000)',
  })
  parseKeepAliveTimeoutMs(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--max-connections-per-address <n>',
    description: 'open connections per client address (default 64; 0 = no cap)',
  })
  parseMaxConnectionsPerAddress(v: string): string {
    return v; // validated (and named by its flag) with the env schema
  }

  @Option({
    flags: '--export-agent-card <file>',
    description: 'write the Agent Card this configuration serves, then exit',
  })
  parseExportAgentCard(v: string): string {
    return v;
  }
}

/** `superqode serve`: parent of `serve a2a`. */
@Command({ name: 'serve', description: 'Run a SuperQode server', subCommands: [ServeA2aCommand] })
export class ServeCommand extends CommandRunner {
  async run(): Promise<void> {
    process.stdout.write('Usage: superqode serve a2a [options] (see --help)\n');
    process.exitCode = 2;
  }
}

/** Flags → env-schema names (undefined = not given, the environment or default applies). */
export function toEnv(o: ServeA2aOptions): RawEnv {
  return {
    SUPERQODE_A2A_HOST: o.host,
    SUPERQODE_A2A_PORT: o.port,
    SUPERQODE_A2A_METRICS_HOST: o.metricsHost,
    SUPERQODE_A2A_METRICS_PORT: o.metricsPort,
    SUPERQODE_A2A_PUBLIC_URL: o.publicUrl,
    SUPERQODE_A2A_TASK_STORE_PATH: typeof o.taskStore === 'string' ? o.taskStore : undefined,
    SUPERQODE_A2A_TASK_STORE_ENABLED: o.taskStore === false ? false : undefined,
    SUPERQODE_A2A_DATABASE_URL: o.databaseUrl,
    SUPERQODE_A2A_MIGRATE: o.migrate,
    SUPERQODE_A2A_REDIS_URL: o.redisUrl,
    SUPERQODE_A2A_LEGACY_V03: o.legacy === false ? false : undefined,
    SUPERQODE_A2A_CARD_CACHE_MAX_AGE_S: o.cardCacheMaxAge,
    SUPERQODE_A2A_ALLOW_REMOTE: o.allowRemote,
    SUPERQODE_A2A_TOKEN: o.token,
    SUPERQODE_A2A_ALLOW_ANONYMOUS: o.anonymous === false ? false : undefined,
    SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: o.anonymousPerMinute,
    SUPERQODE_A2A_KEYED_PER_MINUTE: o.keyedPerMinute,
    SUPERQODE_A2A_GLOBAL_PER_DAY: o.globalPerDay,
    SUPERQODE_A2A_TRUSTED_PROXY_HOPS: o.trustedProxyHops,
    SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE: o.authFailuresPerMinute,
    SUPERQODE_A2A_ANONYMOUS_SHARE_OF_DAY: o.anonymousShareOfDay,
    SUPERQODE_A2A_HARNESS_SPEC: o.spec,
    SUPERQODE_A2A_HARNESS_PROVIDER: o.provider as RawEnv['SUPERQODE_A2A_HARNESS_PROVIDER'],
    SUPERQODE_A2A_HARNESS_MODEL: o.model,
    SUPERQODE_A2A_HARNESS_BASE_URL: o.baseUrl,
    SUPERQODE_A2A_WORKING_DIR: o.workingDir,
    SUPERQODE_A2A_HARNESS_STORE_PATH: o.harnessStore,
    SUPERQODE_A2A_MAX_TASKS: o.maxTasks,
    SUPERQODE_A2A_TASK_TTL_DAYS: o.taskTtlDays,
    SUPERQODE_A2A_MAX_PAGE_SIZE: o.maxPageSize,
    SUPERQODE_A2A_EXPOSE_HARNESS: o.exposeHarness,
    SUPERQODE_A2A_HARNESS_ACCESS: o.harnessAccess as RawEnv['SUPERQODE_A2A_HARNESS_ACCESS'],
    SUPERQODE_A2A_ALLOW_UNSANDBOXED_HARNESS: o.allowUnsandboxedHarness,
    SUPERQODE_A2A_SHORTLIST_ENABLED: o.shortlist === false ? false : undefined,
    SUPERQODE_A2A_CORS_ORIGINS: o.corsOrigin?.join(','),
    SUPERQODE_A2A_ALLOWED_HOSTS: o.allowedHost?.join(','),
    SUPERQODE_A2A_MAX_JSON_DEPTH: o.maxJsonDepth,
    SUPERQODE_A2A_HEADERS_TIMEOUT_MS: o.headersTimeoutMs,
    SUPERQODE_A2A_REQUEST_TIMEOUT_MS: o.requestTimeoutMs,
    SUPERQODE_A2A_KEEP_ALIVE_TIMEOUT_MS: o.keepAliveTimeoutMs,
    SUPERQODE_A2A_MAX_CONNECTIONS_PER_ADDRESS: o.maxConnectionsPerAddress,
  };
}
