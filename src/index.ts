/**
 * Programmatic API of superqode-a2a: serve a harness as an A2A 1.0 agent from your own process.
 * @example
 *   const server = createA2AServer({ spec: 'examples/harness/read-only.yaml', serverUrl: 'https://agent.example.com',
 *     provider: 'openai-compatible', model: 'qwen2.5-coder', baseUrl: 'http://127.0.0.1:11434/v1', bearerToken: process.env.TOKEN });
 *   const url = await server.listen({ host: '127.0.0.1', port: 8000 });
 *   await server.close();
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startServer } from './bootstrap';
import type { RawEnv } from './config/env.schema';
import { HarnessProtocolController } from './modules/harness/protocol/harness-protocol';
import type { A2aSkillContribution } from './modules/skills/skill-contributions';

export { HarnessProtocolController };
export type { HarnessEvent } from './modules/harness/protocol/harness-events';
export { A2aSkill, isStreamingTurn } from './modules/skills/a2a-skill';
export { A2aSkillProvider } from './modules/skills/a2a-skill-provider.decorator';
export type { A2aSkillProviderOptions } from './modules/skills/a2a-skill-provider.decorator';
export type { A2aSkillContribution } from './modules/skills/skill-contributions';
export {
  agentMessage,
  artifact,
  dataPart,
  messageText,
  statusUpdate,
  textPart,
} from './modules/skills/message-parts';
export { acceptsOutput } from './modules/skills/content-modes';
export * from './config/namespaces';
export { AppModule } from './app.module';

/** Options of {@link createA2AServer}; anything unset comes from the environment or the defaults. */
export interface CreateA2AServerOptions {
  /** HarnessSpec file or built-in template (`coding`, `read-only`, `no-tool`). */
  spec?: string;
  /** Your own Harness Protocol controller, used instead of running a spec. */
  controller?: HarnessProtocolController;
  /**
   * Your own skills, served next to the built-ins (card order: after them, or by the class's
   * `@A2aSkillProvider({ order })`): Nest modules providing `@A2aSkillProvider()` classes, or
   * `A2aSkill` instances. Reached by phrase routing or `superqodeSkill` metadata.
   */
  skills?: A2aSkillContribution[];
  /** Public base URL advertised in the Agent Card. */
  serverUrl?: string;
  provider?: 'openai' | 'anthropic' | 'google' | 'openai-compatible';
  model?: string;
  baseUrl?: string;
  /** Operator token (16+ characters). */
  bearerToken?: string;
  workingDir?: string;
  /** SQLite file of the task store; null keeps tasks in memory. */
  taskStorePath?: string | null;
  harnessStorePath?: string;
  /** Any other setting, by its environment variable name. */
  env?: RawEnv;
  /**
   * Also apply `SUPERQODE_A2A_HEAP_GROWTH_PERCENT` to V8 (unset: the heap grows to twice the
   * live heap before a full collection where V8's own factor would reach 4×), as `npm run
   * start:prod` and `serve a2a` do. A V8 setting of the whole process that stays set, so off
   * unless you ask: your application owns its process.
   */
  heapGrowth?: boolean;
}

/** A server built by {@link createA2AServer}. */
export interface A2AServer {
  /**
   * Starts listening. Binding outside loopback needs `env.SUPERQODE_A2A_ALLOW_REMOTE`.
   * @returns The base URL it serves.
   * @throws {Error} Invalid settings (each named), a refused bind, or a port in use.
   */
  listen(opts?: { host?: string; port?: number }): Promise<string>;
  /**
   * Stops listening and closes the stores. The server adds no signal handler to the process:
   * call this from the embedding application's own SIGTERM/SIGINT handling.
   */
  close(): Promise<void>;
  /** The Nest application once listening (for embedding tests). */
  readonly app: NestFastifyApplication | undefined;
}

/**
 * Builds an A2A server (the same modules as `superqode serve a2a`) around a spec or your own
 * Harness Protocol controller.
 * @see examples/embedding/README.md, examples/custom-skill/README.md; A2A specification §3 (the operations it serves).
 */
export function createA2AServer(options: CreateA2AServerOptions = {}): A2AServer {
  let app: NestFastifyApplication | undefined;
  return {
    get app() {
      return app;
    },
    async listen({ host, port } = {}) {
      const store = options.taskStorePath;
      const overrides: RawEnv = {
        ...options.env,
        SUPERQODE_A2A_HOST: host ?? options.env?.SUPERQODE_A2A_HOST,
        SUPERQODE_A2A_PORT: port ?? options.env?.SUPERQODE_A2A_PORT,
        SUPERQODE_A2A_PUBLIC_URL: options.serverUrl ?? options.env?.SUPERQODE_A2A_PUBLIC_URL,
        SUPERQODE_A2A_HARNESS_SPEC: options.spec ?? options.env?.SUPERQODE_A2A_HARNESS_SPEC,
        SUPERQODE_A2A_HARNESS_PROVIDER:
          options.provider ?? options.env?.SUPERQODE_A2A_HARNESS_PROVIDER,
        SUPERQODE_A2A_HARNESS_MODEL: options.model ?? options.env?.SUPERQODE_A2A_HARNESS_MODEL,
        SUPERQODE_A2A_HARNESS_BASE_URL:
          options.baseUrl ?? options.env?.SUPERQODE_A2A_HARNESS_BASE_URL,
        SUPERQODE_A2A_TOKEN: options.bearerToken ?? options.env?.SUPERQODE_A2A_TOKEN,
        SUPERQODE_A2A_WORKING_DIR: options.workingDir ?? options.env?.SUPERQODE_A2A_WORKING_DIR,
        SUPERQODE_A2A_HARNESS_STORE_PATH:
          options.harnessStorePath ?? options.env?.SUPERQODE_A2A_HARNESS_STORE_PATH,
        SUPERQODE_A2A_TASK_STORE_PATH:
          typeof store === 'string' ? store : options.env?.SUPERQODE_A2A_TASK_STORE_PATH,
        SUPERQODE_A2A_TASK_STORE_ENABLED:
          store === null ? false : options.env?.SUPERQODE_A2A_TASK_STORE_ENABLED,
      };
      const started = await startServer(
        overrides,
        { harnessController: options.controller, skills: options.skills },
        { heapGrowth: options.heapGrowth === true },
      );
      app = started.app;
      return started.url;
    },
    async close() {
      await app?.close();
      app = undefined;
    },
  };
}
