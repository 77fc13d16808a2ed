import { Logger } from '@nestjs/common';
import type { LoggerService } from '@nestjs/common';
import pino from 'pino';
import type { Logger as PinoLogger, LevelWithSilent } from 'pino';
import pretty from 'pino-pretty';
import type { Env } from '../../config/env.schema';

/** The process logger (pino): shared by Nest, Fastify, the access log and the harness run lines. */
export type ProcessLogger = PinoLogger;

/** How log lines look: one JSON object per line, or one readable line (`auto`: pretty on a TTY). */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** Where and how the process logs; `loggerFromEnv` fills it from the configuration. */
export interface ProcessLoggerOptions {
  /** Nest level name (`log` = pino `info`, `verbose` = pino `trace`). */
  level: Env['SUPERQODE_A2A_LOG_LEVEL'];
  format: LogFormat;
  /** Default stdout (fd 1). */
  stream?: NodeJS.WritableStream;
  /** The stream is a terminal (default: `process.stdout.isTTY`). */
  isTty?: boolean;
  /** `NO_COLOR` is set (https://no-color.org): never colour. */
  noColor?: boolean;
}

const PINO_LEVEL: Record<ProcessLoggerOptions['level'], LevelWithSilent> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/**
 * Credential-bearing fields pino replaces by `[REDACTED]` wherever a caller logs them (headers of a
 * logged request, a token or password field); the access log never carries them in the first place.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'token',
  'password',
  'apiKey',
];

/**
 * Creates the process logger. JSON: `{"level":"info","time":"<ISO 8601>","context":…,"msg":…}`
 * per line. Pretty: `HH:MM:ss.l INFO (context): msg key=value` on one line, coloured only on a
 * TTY without `NO_COLOR`. Writes are synchronous, so no line is lost when the process exits.
 */
export function createProcessLogger(options: ProcessLoggerOptions): ProcessLogger {
  const isTty = options.isTty ?? process.stdout.isTTY === true;
  const usePretty = options.format === 'pretty' || (options.format === 'auto' && isTty);
  const common = {
    level: PINO_LEVEL[options.level],
    base: undefined,
    redact: REDACTED_PATHS,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (!usePretty) {
    const destination = options.stream ?? pino.destination({ dest: 1, sync: true });
    return pino({ ...common, timestamp: pino.stdTimeFunctions.isoTime }, destination);
  }
  const stream = pretty({
    colorize: isTty && !options.noColor,
    singleLine: true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}({context}) {end}{msg}',
    destination: options.stream ?? 1,
  });
  return pino(common, stream);
}

/**
 * Nest's start-up chatter (modules initialised, routes mapped, "successfully started"): logged at
 * debug, so the default level shows the banner instead.
 */
const BOOT_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Nest's `LoggerService` on the process logger: `new Logger(ctx).log(msg)` becomes
 * `{"level":"info","context":ctx,"msg":msg}`. `error(msg, stack, ctx)` carries `stack` only when
 * Nest passes one (an unexpected failure); expected refusals are logged by their callers without.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: ProcessLogger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = lastString(params);
    this.write(context && BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }
  error(message: unknown, ...params: unknown[]): void {
    const context = params.length > 1 ? lastString(params) : undefined;
    const stack = typeof params[0] === 'string' && params[0].includes('\n    at ') ? params[0] : '';
    const ctx = context ?? (stack ? undefined : lastString(params));
    // A failure while the app is created is rethrown to our caller, which logs it once (no stack).
    this.write(ctx === 'ExceptionHandler' ? 'debug' : 'error', message, ctx, stack);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, lastString(params));
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, lastString(params));
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, lastString(params));
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, lastString(params));
  }

  private write(
    level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace',
    message: unknown,
    context: string | undefined,
    stack?: string,
  ): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (stack) fields.stack = stack;
    if (message instanceof Error) {
      this.logger[level]({ ...fields, stack: message.stack }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...message });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}

/**
 * Makes every `new Logger(ctx)` of Nest write through a process logger made from the raw
 * environment's `NO_COLOR` only (level `log`, format `auto`): for the lines written before the
 * configuration is validated (an invalid variable, a refused bind), which would otherwise come out
 * in Nest's coloured format even when piped.
 */
export function useProcessLoggerForNest(noColor: boolean): void {
  Logger.overrideLogger(
    new PinoNestLogger(createProcessLogger({ level: 'log', format: 'auto', noColor })),
  );
}

function lastString(params: unknown[]): string | undefined {
  const last = params[params.length - 1];
  return typeof last === 'string' ? last : undefined;
}
