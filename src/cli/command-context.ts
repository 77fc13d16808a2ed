import type { DynamicModule, INestApplicationContext, LogLevel, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** Options of {@link withCommandContext}. */
export interface CommandContextOptions {
  /** Nest log levels shown while the command runs (default errors only). */
  logger?: LogLevel[];
}

/**
 * Runs `work` in a Nest application context of `module`, then closes it (shutdown hooks run:
 * stores closed, runs still in progress recorded). The one place a command builds a container:
 * the command tree lives in the CLI container (`CliModule`), and a command whose stores or
 * configuration come from its own flags (`harness …` from `--harness-store`, `a2a reconcile`
 * from `--task-store`, `serve a2a --export-agent-card` from the serve flags) opens exactly the
 * feature module it needs here once its flags are parsed. No store lifecycle (reconcilers,
 * heartbeats, pruning) is built: that lives in the server's module only. `serve a2a` itself
 * goes through `startServer` (`src/bootstrap.ts`).
 * @throws {Error} The module fails to build (invalid configuration, unopenable store); whatever `work` throws.
 */
export async function withCommandContext<T>(
  module: Type | DynamicModule,
  work: (context: INestApplicationContext) => Promise<T>,
  options: CommandContextOptions = {},
): Promise<T> {
  const context = await NestFactory.createApplicationContext(module, {
    logger: options.logger ?? ['error'],
    abortOnError: false,
  });
  try {
    return await work(context);
  } finally {
    await context.close();
  }
}
