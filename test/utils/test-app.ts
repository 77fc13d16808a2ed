import type { DynamicModule, Type } from '@nestjs/common';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
import { adapterFor, bootConfig, configureApp, processLoggerFor } from '../../src/bootstrap';
import { PinoNestLogger } from '../../src/modules/observability/process-logger';
import type { RawEnv } from '../../src/config/env.schema';

type ModuleImport = Type<unknown> | DynamicModule;

/** A running server on loopback for one suite. */
export interface TestServer {
  app: NestFastifyApplication;
  /** Base URL, e.g. http://127.0.0.1:41234 (also the card's public URL). */
  url: string;
  /** Temp directory holding the SQLite files; removed by {@link TestServer.close} unless kept. */
  dir: string;
  close(opts?: { keepDir?: boolean }): Promise<void>;
}

/**
 * Ports each jest worker draws from: 20000–32767, below Linux's ephemeral range (32768–60999),
 * above every port the Fetch standard's "bad port" list blocks (the highest is 10080: fetch()
 * refuses it) and above the fixed ports tests bind (the OAuth redirect listeners on 19876 and
 * 19877). 25 blocks of 500.
 */
const PORTS_PER_WORKER = 500;
const FIRST_PORT = 20000;
const WORKER_SLOTS = Math.floor((32768 - FIRST_PORT) / PORTS_PER_WORKER);
let nextPortOffset = Math.floor(Math.random() * PORTS_PER_WORKER);

/** Resolves true when nothing listens on 127.0.0.1:`port` (binds it, then releases it). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A free TCP port on 127.0.0.1 for a server a test starts next.
 * Not an OS-assigned ephemeral port: the OS hands a released ephemeral port to the next
 * `listen(0)` or outgoing connection of any process, so with suites side by side another worker
 * could take it between this probe and the server's listen. Each jest worker (`JEST_WORKER_ID`)
 * draws from its own block of 500 ports in 20000–32499, which no ephemeral allocation and no
 * other of the first 25 workers uses (a 26th shares the first worker's block, so with more
 * workers than that the probe-then-listen race is back between those two); calls in one file
 * take successive ports of the block, skipping any in use.
 * @throws {Error} when every port of the worker's block is in use.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const block = FIRST_PORT + ((worker - 1) % WORKER_SLOTS) * PORTS_PER_WORKER;
  for (let tries = 0; tries < PORTS_PER_WORKER; tries++) {
    const port = block + (nextPortOffset++ % PORTS_PER_WORKER);
    if (await portIsFree(port)) return port;
  }
  throw new Error(`no free port in ${block}–${block + PORTS_PER_WORKER - 1}`);
}

/**
 * Starts the real AppModule on Fastify, listening on 127.0.0.1 with a real SQLite task store in
 * a fresh temp dir (or `dir` when given: restart tests). `customize` may override providers
 * (clock, ids, agent executor only, per docs/style.md §8).
 */
export async function startTestServer(
  env: RawEnv = {},
  opts: {
    dir?: string;
    customize?: (b: TestingModuleBuilder) => TestingModuleBuilder;
    logStream?: NodeJS.WritableStream;
    /** Modules imported next to AppModule (an embedder's skill modules). */
    imports?: ModuleImport[];
  } = {},
): Promise<TestServer> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'sq-a2a-'));
  const port = await freePort();
  const overrides: RawEnv = {
    SUPERQODE_A2A_HOST: '127.0.0.1',
    SUPERQODE_A2A_PORT: port,
    SUPERQODE_A2A_TASK_STORE_PATH: join(dir, 'tasks.sqlite3'),
    SUPERQODE_A2A_LOG_LEVEL: 'error',
    // Suites that are not about rate limits run without ceilings; rate-limit suites set them.
    SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 0,
    SUPERQODE_A2A_KEYED_PER_MINUTE: 0,
    SUPERQODE_A2A_GLOBAL_PER_DAY: 0,
    SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE: 0,
    // The harness skill needs a model; suites about it turn it on with a fake model server.
    SUPERQODE_A2A_HARNESS_ENABLED: false,
    SUPERQODE_A2A_HARNESS_STORE_PATH: join(dir, 'harness.sqlite3'),
    ...env,
  };
  // As bootstrap does: validated once, the serve policy checked once, then the container.
  const validated = bootConfig(overrides);
  const resolved = validated.env;
  let builder = Test.createTestingModule({
    imports: [AppModule.forRoot(validated), ...(opts.imports ?? [])],
  });
  if (opts.customize) builder = opts.customize(builder);
  const moduleRef = await builder.compile();
  // With a log stream, Nest's lines (banner aside) go to it through the process logger too.
  const logger = processLoggerFor(resolved, opts.logStream);
  moduleRef.useLogger(opts.logStream ? new PinoNestLogger(logger) : ['error']);
  const app = configureApp(
    moduleRef.createNestApplication<NestFastifyApplication>(
      adapterFor(resolved, opts.logStream, logger),
      { bodyParser: false },
    ),
  );
  await app.listen(port, '127.0.0.1');
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    dir,
    close: async ({ keepDir = false } = {}) => {
      await app.close();
      if (!keepDir && !opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
