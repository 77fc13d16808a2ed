import { ConsoleLogger, LogLevel, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import type { AppEmbedding } from './app.module';
import {
  A2aConfig,
  assertBindAllowed,
  remoteBindWarnings,
  trustedProxyHops,
} from './config/a2a.config';
import { Env, RawEnv } from './config/env.schema';
import { loadEnv } from './config/load-env';
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
  const config = app.get(A2aConfig);
  registerRequestGuards(fastify, config);
  capConnectionsPerAddress(app.getHttpServer(), config.http.maxConnectionsPerAddress);
  app.enableShutdownHooks();
  return app;
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
  const env = loadEnv(overrides);
  assertBindAllowed(env.SUPERQODE_A2A_HOST, env.SUPERQODE_A2A_ALLOW_REMOTE);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(overrides, embedding),
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
  const config = app.get(A2aConfig);
  const publicUrlGiven = loadEnv(overrides).SUPERQODE_A2A_PUBLIC_URL !== undefined;
  const logger = new Logger('Bootstrap');
  for (const warning of remoteBindWarnings(config, publicUrlGiven)) logger.warn(warning);
  await app.listen(config.port, config.host);
  return { app, url: config.publicUrl };
}
