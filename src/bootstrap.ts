import { ConsoleLogger, LogLevel, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import type { AppEmbedding } from './app.module';
import { assertServePolicy, remoteBindWarnings, trustedProxyHops } from './config/a2a.config';
import { ValidatedEnv } from './config/a2a-config.module';
import { Env, RawEnv } from './config/env.schema';
import { accessConfig, cardConfig, httpConfig, serverConfig } from './config/namespaces';
import type { ConfigType } from '@nestjs/config';
import { redactUrl } from './common/http/redact-url';
import { registerRequestGuards } from './modules/transport/http/request-guards';
import {
  capConnectionsPerAddress,
  serverLimitOptions,
} from './modules/transport/http/server-limits';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/**
 * The Fastify adapter for a configuration: body limit (bytes), trusted proxy hops and, at debug level, Fastify's
 * request log (pino JSON lines) with `Authorization`, cookies and `access_token` redacted.
 * @param logStream - Where request logs go (default stdout); tests capture them.
 */
export function adapterFor(env: Env, logStream?: NodeJS.WritableStream): FastifyAdapter {
  const level = env.SUPERQODE_A2A_LOG_LEVEL;
  const hops = trustedProxyHops(
    env.SUPERQODE_A2A_TRUSTED_PROXY_HOPS,
    env.SUPERQODE_A2A_ALLOW_REMOTE,
  );
  const requestLog = level === 'debug' || level === 'verbose';
  return new FastifyAdapter({
    bodyLimit: env.SUPERQODE_A2A_MAX_BODY_BYTES,
    // Request/head/keep-alive deadlines and A2A-shaped Node/Fastify-level errors (issue #11).
    ...serverLimitOptions(env),
    // request.ip honours X-Forwarded-For only through this many trusted proxies.
    trustProxy: hops > 0 ? hops : false,
    logger: requestLog
      ? {
          level: 'info',
          redact: ['req.headers.authorization', 'req.headers.cookie'],
          serializers: {
            req: (req: { method: string; url: string; ip?: string }) => ({
              method: req.method,
              url: redactUrl(req.url),
              remoteAddress: req.ip,
            }),
          },
          ...(logStream ? { stream: logStream } : {}),
        }
      : false,
  });
}

/** Nest's logger as one JSON object per line, at the configured level and above. */
export function loggerFor(env: Env): ConsoleLogger {
  const level = env.SUPERQODE_A2A_LOG_LEVEL;
  return new ConsoleLogger({ json: true, logLevels: LEVELS.slice(0, LEVELS.indexOf(level) + 1) });
}

/**
 * Wires what must be set on the Fastify instance itself (shared by production and tests):
 * raw-string body parsing for every media type (controllers parse, so bad JSON and wrong media
 * types get A2A errors), the request guards (Host, Origin, preflight, Content-Type: see
 * {@link registerRequestGuards}), the per-address connection cap and shutdown hooks. Failures
 * before a controller runs (413, unknown route) reach Nest's global filter,
 * `A2aFallbackExceptionFilter`. Call before `init()`/`listen()`.
 */
export function configureApp(app: NestFastifyApplication): NestFastifyApplication {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  const http = app.get<ConfigType<typeof httpConfig>>(httpConfig.KEY);
  registerRequestGuards(fastify, {
    publicUrl: app.get<ConfigType<typeof serverConfig>>(serverConfig.KEY).publicUrl,
    http,
    legacyV03: app.get<ConfigType<typeof cardConfig>>(cardConfig.KEY).legacyV03,
  });
  capConnectionsPerAddress(app.getHttpServer(), http.maxConnectionsPerAddress);
  app.enableShutdownHooks();
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
 * @param overrides - Settings that win over the environment.
 * @throws {Error} Invalid configuration or refused bind (before anything listens).
 */
export async function createApp(
  overrides: RawEnv = {},
  embedding: AppEmbedding = {},
): Promise<NestFastifyApplication> {
  const validated = bootConfig(overrides);
  const env = validated.env;
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(validated, embedding),
    adapterFor(env),
    {
      bodyParser: false,
      logger: loggerFor(env),
      abortOnError: false,
    },
  );
  return configureApp(app);
}

/**
 * Creates the app and listens on the configured host and port.
 * @returns The app and the base URL it listens on.
 */
export async function startServer(
  overrides: RawEnv = {},
  embedding: AppEmbedding = {},
): Promise<{ app: NestFastifyApplication; url: string }> {
  const app = await createApp(overrides, embedding);
  const server = app.get<ConfigType<typeof serverConfig>>(serverConfig.KEY);
  const access = app.get<ConfigType<typeof accessConfig>>(accessConfig.KEY);
  const logger = new Logger('Bootstrap');
  for (const warning of remoteBindWarnings(server, access)) logger.warn(warning);
  await app.listen(server.port, server.host);
  return { app, url: server.publicUrl };
}
