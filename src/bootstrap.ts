import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import { AppModule } from './app.module';
import { applyHeapGrowthSetting } from './common/runtime/heap-growth';
import type { AppEmbedding } from './app.module';
import {
  assertServePolicy,
  portChosenAtStart,
  remoteBindWarnings,
  trustedProxyHops,
} from './config/a2a.config';
import { ValidatedEnv } from './config/a2a-config.module';
import { Env, RawEnv } from './config/env.schema';
import { accessConfig, cardConfig, httpConfig, serverConfig } from './config/namespaces';
import type { ConfigType } from '@nestjs/config';
import { processEnv } from './config/process-env';
import { AgentCardRoutes } from './modules/agent-card/agent-card.routes';
import { cardBeforeRouting } from './modules/agent-card/agent-card.fast-path';
import { registerHttpObserver } from './modules/observability/http-observer';
import { MetricsService } from './modules/observability/metrics.service';
import { startMetricsListener } from './modules/observability/metrics-listener';
import {
  PinoNestLogger,
  ProcessLogger,
  createProcessLogger,
} from './modules/observability/process-logger';
import { startupBanner } from './modules/observability/startup-banner';
import { registerRequestGuards } from './modules/transport/http/request-guards';
import { serveBeforeRouting } from './modules/transport/http/before-routing';
import { SendMessageFastPath } from './modules/transport/send-message.fast-path';
import {
  capConnectionsPerAddress,
  keepRequestDeadlineWhileClosing,
  serverLimitOptions,
} from './modules/transport/http/server-limits';

/**
 * The process logger for a configuration (`SUPERQODE_A2A_LOG_LEVEL`, `SUPERQODE_A2A_LOG_FORMAT`,
 * `NO_COLOR`): JSON lines off a TTY, one readable line on a TTY (see `createProcessLogger`).
 * @param logStream - Where lines go (default stdout); tests capture them.
 */
export function processLoggerFor(env: Env, logStream?: NodeJS.WritableStream): ProcessLogger {
  return createProcessLogger({
    level: env.SUPERQODE_A2A_LOG_LEVEL,
    format: env.SUPERQODE_A2A_LOG_FORMAT,
    stream: logStream,
    isTty: logStream ? false : undefined,
    noColor: (processEnv().NO_COLOR ?? '') !== '',
  });
}

/**
 * The Fastify adapter for a configuration: body limit (bytes), trusted proxy hops and the process
 * logger (Fastify's own lines at warn, or at the configured level from debug down). Fastify's
 * request log is off: `registerHttpObserver` writes one access line per request instead.
 * @param logStream - Where log lines go (default stdout); tests capture them.
 * @param logger - The process logger (default: one made for `env` and `logStream`).
 */
export function adapterFor(
  env: Env,
  logStream?: NodeJS.WritableStream,
  logger: ProcessLogger = processLoggerFor(env, logStream),
): FastifyAdapter {
  const hops = trustedProxyHops(
    env.SUPERQODE_A2A_TRUSTED_PROXY_HOPS,
    env.SUPERQODE_A2A_ALLOW_REMOTE,
  );
  const debug = logger.isLevelEnabled('debug');
  const adapter = new FastifyAdapter({
    bodyLimit: env.SUPERQODE_A2A_MAX_BODY_BYTES,
    // Request/head/keep-alive deadlines and A2A-shaped Node/Fastify-level errors (issue #11).
    ...serverLimitOptions(env),
    // request.ip honours X-Forwarded-For only through this many trusted proxies.
    trustProxy: hops > 0 ? hops : false,
    loggerInstance: logger.child({ context: 'fastify' }, { level: debug ? logger.level : 'warn' }),
    logController: new LogController({ disableRequestLogging: true }),
    // One logger for every request: no per-request child (the access line names the request).
    childLoggerFactory: (parent: FastifyBaseLogger) => parent,
  });
  PROCESS_LOGGERS.set(adapter.getInstance(), logger);
  return adapter;
}

/** The process logger each adapter was made with (for the access log in {@link configureApp}). */
const PROCESS_LOGGERS = new WeakMap<object, ProcessLogger>();

/**
 * Signals that close a server running as its own process (`npm run start:prod`, `serve a2a`):
 * Nest's shutdown hooks close the stores, then the signal ends the process. Not SIGUSR2 and the
 * fault signals, which Nest would take by default (SIGUSR2 is a reload signal of tools such as
 * nodemon).
 */
export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = [
  'SIGTERM',
  'SIGINT',
  'SIGHUP',
  'SIGQUIT',
];

/** How the server treats the process it runs in. */
export interface ProcessOptions {
  /**
   * Signals whose arrival closes the app (Nest's shutdown hooks). None by default: an embedding
   * application owns its process's signals and calls `close()` itself.
   */
  shutdownSignals?: readonly NodeJS.Signals[];
  /**
   * Apply `SUPERQODE_A2A_HEAP_GROWTH_PERCENT` (or its default) to V8, process-wide: see
   * {@link applyHeapGrowthSetting}. Off by default: an embedding application owns its process's V8 settings.
   */
  heapGrowth?: boolean;
}

/** A server that is its own process (`npm run start:prod`, `superqode serve a2a`). */
export const OWN_PROCESS: ProcessOptions = { shutdownSignals: SHUTDOWN_SIGNALS, heapGrowth: true };

/**
 * Wires what must be set on the Fastify instance itself (shared by production and tests):
 * raw-string body parsing for every media type (controllers parse, so bad JSON and wrong media
 * types get A2A errors), the request guards (Host, Origin, preflight, Content-Type: see
 * {@link registerRequestGuards}), the plain card GET and A2A 1.0 SendMessage served before
 * Fastify's routing ({@link serveBeforeRouting}), the per-address connection cap, the request deadline while closing
 * ({@link keepRequestDeadlineWhileClosing}) and, for a server that is its own process, the
 * signals that close it. Failures before a controller runs (413, unknown route) reach Nest's
 * global filter, `A2aFallbackExceptionFilter`. Call before `init()`/`listen()`.
 */
export function configureApp(
  app: NestFastifyApplication,
  options: ProcessOptions = {},
): NestFastifyApplication {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  const logger = PROCESS_LOGGERS.get(fastify) ?? processLoggerFor(ValidatedEnv.load().env);
  const observe = registerHttpObserver(fastify, app.get(MetricsService), logger);
  const http = app.get<ConfigType<typeof httpConfig>>(httpConfig.KEY);
  const guards = registerRequestGuards(fastify, {
    publicUrl: app.get<ConfigType<typeof serverConfig>>(serverConfig.KEY).publicUrl,
    http,
    legacyV03: app.get<ConfigType<typeof cardConfig>>(cardConfig.KEY).legacyV03,
  });
  const cards = app.get(AgentCardRoutes, { strict: false });
  const sends = app.get(SendMessageFastPath, { strict: false });
  serveBeforeRouting(fastify, app.getHttpServer(), [
    cardBeforeRouting({ guards, cards, observe }),
    sends.beforeRouting({ guards, observe }),
  ]);
  capConnectionsPerAddress(app.getHttpServer(), http.maxConnectionsPerAddress);
  keepRequestDeadlineWhileClosing(fastify, app.getHttpServer(), http.requestTimeoutMs);
  if (options.shutdownSignals) app.enableShutdownHooks([...options.shutdownSignals]);
  return app;
}

/**
 * Validates the configuration once (the env schema) and checks the serve policy once (remote
 * bind, harness access): what every way of starting the server does before building it.
 * @param overrides - Settings that win over the environment (CLI flags, tests).
 * @throws {ConfigValidationError} An invalid variable (each named).
 * @throws {Error} A refused bind or harness access (naming the flag to change).
 */
export function bootConfig(overrides: RawEnv = {}): ValidatedEnv {
  const validated = ValidatedEnv.load(overrides);
  assertServePolicy(validated.env);
  return validated;
}

/**
 * Creates the server application (not listening yet).
 * @param validated - The settings, validated and allowed by the serve policy ({@link bootConfig}).
 */
export async function createApp(
  validated: ValidatedEnv,
  embedding: AppEmbedding = {},
  options: ProcessOptions = {},
): Promise<NestFastifyApplication> {
  const env = validated.env;
  const logger = processLoggerFor(env);
  const heapGrowth = options.heapGrowth
    ? applyHeapGrowthSetting(env.SUPERQODE_A2A_HEAP_GROWTH_PERCENT)
    : undefined;
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(validated, embedding),
    adapterFor(env, undefined, logger),
    {
      bodyParser: false,
      logger: new PinoNestLogger(logger),
      abortOnError: false,
    },
  );
  if (heapGrowth) new Logger('superqode').debug(heapGrowth);
  return configureApp(app, options);
}

/**
 * A failure to bind `host:port` explained: an address already in use or a port this user may
 * not bind names the address and the settings that choose another port, so a second
 * `npm start` in the same checkout says what happened in one line. Other errors are returned
 * as they are.
 * @param setting - Where the port comes from, e.g. `--port or SUPERQODE_A2A_PORT`.
 * @returns An Error (`cause`: the listen error), or `err` itself.
 */
function explainBindFailure(err: unknown, host: string, port: number, setting: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  const why =
    code === 'EADDRINUSE'
      ? 'the address is already in use (is another server running there?)'
      : code === 'EACCES'
        ? 'this user may not bind that port'
        : undefined;
  if (why === undefined) return err;
  return new Error(
    `Cannot listen on ${host}:${port}: ${why}. Stop the other server, or choose another port ` +
      `with ${setting}.`,
    { cause: err },
  );
}

/**
 * Starts the metrics listener when configured; its URL, else undefined.
 * @throws {Error} Its address cannot be bound ({@link explainBindFailure}).
 */
async function listenForMetrics(
  app: NestFastifyApplication,
  server: ConfigType<typeof serverConfig>,
): Promise<string | undefined> {
  if (server.metricsHost === undefined) return undefined;
  const { metricsHost, metricsPort } = server;
  const listener = await startMetricsListener(
    app.get(MetricsService),
    metricsHost,
    metricsPort,
  ).catch((err: unknown) => {
    const setting = '--metrics-port or SUPERQODE_A2A_METRICS_PORT';
    throw explainBindFailure(err, metricsHost, metricsPort, setting);
  });
  app.getHttpServer().once('close', () => listener.server.close());
  return listener.url;
}

/** Tries at binding a port chosen for port 0 before the start fails (another process took it). */
const CHOSEN_PORT_ATTEMPTS = 3;

/**
 * Creates the app and listens on the configured host and port.
 *
 * Port 0 ("any free port": tests, scripts, embedding) without a public URL: the port is chosen
 * before the app is built (the kernel's pick for `host`, after the serve policy allowed `host`),
 * so the Agent Card, the root index and the same-origin check name the port the server serves on,
 * not `:0`; should another process take that port before the bind, another is chosen (up to
 * {@link CHOSEN_PORT_ATTEMPTS} tries).
 * @param options - `shutdownSignals` for a server that is its own process (see {@link SHUTDOWN_SIGNALS}).
 * @returns The app and the base URL it serves (the public URL; with port 0 and none given, the bound one).
 * @throws {Error} Invalid configuration, refused bind, or an address that cannot be bound.
 */
export async function startServer(
  overrides: RawEnv = {},
  embedding: AppEmbedding = {},
  options: ProcessOptions = {},
): Promise<{ app: NestFastifyApplication; url: string }> {
  const validated = bootConfig(overrides);
  if (!portChosenAtStart(validated.env)) return listenOn(validated, embedding, options);
  for (let attempt = 1; ; attempt++) {
    const port = await freePortOn(validated.env.SUPERQODE_A2A_HOST);
    const withPort = bootConfig({ ...overrides, SUPERQODE_A2A_PORT: port });
    try {
      return await listenOn(withPort, embedding, options);
    } catch (err) {
      // Only the chosen port taken meanwhile; not a taken metrics port (`--metrics-port`).
      const cause = (err as Error)?.cause as
        (NodeJS.ErrnoException & { port?: number }) | undefined;
      const lost = cause?.code === 'EADDRINUSE' && cause.port === port;
      if (!lost || attempt >= CHOSEN_PORT_ATTEMPTS) throw err;
    }
  }
}

/**
 * A TCP port free on `host` now: the kernel's pick for a listener on port 0, closed again.
 * @throws {Error} `host` cannot be bound (the listen error).
 */
function freePortOn(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** {@link startServer} on the port the settings name. */
async function listenOn(
  validated: ValidatedEnv,
  embedding: AppEmbedding,
  options: ProcessOptions,
): Promise<{ app: NestFastifyApplication; url: string }> {
  const app = await createApp(validated, embedding, options);
  const server = app.get<ConfigType<typeof serverConfig>>(serverConfig.KEY);
  const access = app.get<ConfigType<typeof accessConfig>>(accessConfig.KEY);
  const logger = new Logger('superqode');
  for (const warning of remoteBindWarnings(server, access)) logger.warn(warning);
  let metricsUrl: string | undefined;
  try {
    await app.listen(server.port, server.host).catch((err: unknown) => {
      throw explainBindFailure(err, server.host, server.port, '--port or SUPERQODE_A2A_PORT');
    });
    metricsUrl = await listenForMetrics(app, server);
  } catch (err) {
    await app.close().catch(() => undefined); // the stores it opened; nothing stays listening
    throw err;
  }
  for (const line of startupBanner(app, await app.getUrl(), metricsUrl)) logger.log(line);
  return { app, url: server.publicUrl };
}
