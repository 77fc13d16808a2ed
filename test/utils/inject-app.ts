import { Test } from '@nestjs/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
import { adapterFor, bootConfig, configureApp } from '../../src/bootstrap';
import type { RawEnv } from '../../src/config/env.schema';

/** Methods the bindings and guards answer. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'DELETE' | 'OPTIONS';

/** A reply as the e2e `post`/`get` builders return it (fetch-like headers, parsed JSON). */
export interface InjectedReply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/**
 * The real AppModule on a real Fastify instance, driven with Fastify's `inject()` (light-my-request:
 * the full Fastify pipeline, hooks, body limit, guards, filters and controllers, without a socket).
 * The controller test tier (`test/controller`): wire shapes of the bindings, fast.
 */
export interface InjectedApp {
  app: NestFastifyApplication;
  /** Base URL requests are addressed to (the card's public URL); only the path is used. */
  url: string;
  /** Temp directory of the SQLite files. */
  dir: string;
  /** POSTs `body` (a string is sent as is) to the path of `url`. */
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<InjectedReply>;
  /** GETs the path of `url`. */
  get(url: string, headers?: Record<string, string>): Promise<InjectedReply>;
  /** Any method (HEAD, OPTIONS, DELETE…) to the path of `url`. */
  request(
    method: HttpMethod,
    url: string,
    headers?: Record<string, string>,
    body?: unknown,
  ): Promise<InjectedReply>;
  close(): Promise<void>;
}

/**
 * Builds the app as `startTestServer` does (same defaults: no rate limits, no harness, SQLite in
 * a temp dir), initialised but not listening.
 */
export async function startInjectedApp(env: RawEnv = {}): Promise<InjectedApp> {
  const dir = mkdtempSync(join(tmpdir(), 'sq-a2a-inject-'));
  const url = 'http://127.0.0.1:8000';
  const validated = bootConfig({
    SUPERQODE_A2A_HOST: '127.0.0.1',
    SUPERQODE_A2A_PORT: 8000,
    SUPERQODE_A2A_TASK_STORE_PATH: join(dir, 'tasks.sqlite3'),
    SUPERQODE_A2A_LOG_LEVEL: 'error',
    SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 0,
    SUPERQODE_A2A_KEYED_PER_MINUTE: 0,
    SUPERQODE_A2A_GLOBAL_PER_DAY: 0,
    SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE: 0,
    SUPERQODE_A2A_HARNESS_ENABLED: false,
    SUPERQODE_A2A_HARNESS_STORE_PATH: join(dir, 'harness.sqlite3'),
    ...env,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(validated)],
  }).compile();
  moduleRef.useLogger(['error']);
  const app = configureApp(
    moduleRef.createNestApplication<NestFastifyApplication>(adapterFor(validated.env), {
      bodyParser: false,
    }),
  );
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const send = async (
    method: HttpMethod,
    target: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<InjectedReply> => {
    const { pathname, search } = new URL(target, url);
    const res = await app.inject({
      method,
      url: `${pathname}${search}`,
      headers: { host: '127.0.0.1:8000', ...headers },
      ...(body === undefined
        ? {}
        : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const replyHeaders = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) replyHeaders.set(k, Array.isArray(v) ? v.join(', ') : String(v));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, headers: replyHeaders, body: parsed, text: res.body };
  };
  return {
    app,
    url,
    dir,
    post: (target, body, headers = { 'content-type': 'application/json' }) =>
      send('POST', target, headers, body),
    get: (target, headers = {}) => send('GET', target, headers),
    request: (method, target, headers = {}, body) => send(method, target, headers, body),
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
