/**
 * TCK system under test: the real server (AppModule, Fastify, SQLite task store, both bindings,
 * the real Agent Card) with the agent executor replaced by {@link TckExecutor}, which implements
 * the A2A TCK's SUT fixture behaviours (a2aproject/a2a-tck branch 1.0-dev, docs/SUT_REQUIREMENTS.md
 * and scenarios/*.feature), selected by the prefix of the user message's `messageId`.
 * Every other message goes to the real executor (skill router → shortlist).
 *
 * Configuration: the usual SUPERQODE_A2A_* environment variables (port, task store path, log
 * level, SUPERQODE_A2A_LEGACY_V03=false for a strict 1.0 card); TCK_STREAMING_TIMEOUT (seconds,
 * default 2) sets how long a `test-resubscribe-message-id*` task stays WORKING (twice that).
 *
 * Not part of the production build (tsconfig.build.json compiles src/ only).
 */
import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Role, TaskState } from '@a2a-js/sdk';
import type { Artifact, Message, Part, Task } from '@a2a-js/sdk';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import { AppModule } from '../src/app.module';
import { adapterFor, configureApp, SHUTDOWN_SIGNALS } from '../src/bootstrap';
import { loadEnv } from '../src/config/load-env';
import type { RawEnv } from '../src/config/env.schema';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock, IdGenerator } from '../src/common/runtime/clock';
import { SkillRouter } from '../src/modules/skills/skill-router.service';
import { SkillRouterExecutor } from '../src/modules/skills/skill-router.executor';
import { AGENT_EXECUTOR } from '../src/modules/skills/skills.constants';

const STREAMING_TIMEOUT_S = Number(process.env.TCK_STREAMING_TIMEOUT ?? '2') || 2;

const now = (): string => new Date().toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});
const raw = (bytes: string, filename: string, mediaType: string): Part => ({
  content: { $case: 'raw', value: Buffer.from(bytes, 'utf8') },
  metadata: undefined,
  filename,
  mediaType,
});
const url = (value: string, filename: string, mediaType: string): Part => ({
  content: { $case: 'url', value },
  metadata: undefined,
  filename,
  mediaType,
});
const data = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

/** One fixture turn, with helpers that publish on the bus for this task. */
class Turn {
  constructor(
    readonly ctx: RequestContext,
    readonly bus: ExecutionEventBus,
  ) {}

  get taskId(): string {
    return this.ctx.taskId;
  }
  get contextId(): string {
    return this.ctx.contextId;
  }

  /** First event of every task turn (SDK rule): the new task, or the stored one on a follow-up. */
  start(): void {
    const task: Task = this.ctx.task ?? {
      id: this.taskId,
      contextId: this.contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
      artifacts: [],
      history: [this.ctx.userMessage],
      metadata: {},
    };
    this.bus.publish(AgentEvent.task(task));
  }

  message(parts: Part[]): Message {
    return {
      messageId: randomUUID(),
      contextId: this.contextId,
      taskId: this.taskId,
      role: Role.ROLE_AGENT,
      parts,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
  }

  status(state: TaskState, message?: Message): void {
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        status: { state, message, timestamp: now() },
        metadata: undefined,
      }),
    );
  }

  artifact(
    parts: Part[],
    opts: { artifactId?: string; append?: boolean; lastChunk?: boolean } = {},
  ): void {
    const artifact: Artifact = {
      artifactId: opts.artifactId ?? randomUUID(),
      name: 'tck-output',
      description: '',
      parts,
      metadata: undefined,
      extensions: [],
    };
    this.bus.publish(
      AgentEvent.artifactUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        artifact,
        append: opts.append ?? false,
        lastChunk: opts.lastChunk ?? true,
        metadata: undefined,
      }),
    );
  }
}

type Scenario = (t: Turn) => Promise<void> | void;

/**
 * messageId prefix → behaviour. Matched in this order (longest first where one prefix extends
 * another: tck-artifact-file-url before tck-artifact-file, tck-stream-artifact-* before tck-stream-*).
 * Each task scenario ends in a terminal state except tck-input-required (INPUT_REQUIRED; the bus
 * stays open so SubscribeToTask and follow-up turns share it).
 */
const SCENARIOS: Array<[string, Scenario]> = [
  [
    'tck-stream-artifact-chunked',
    (t) => {
      t.start();
      t.status(TaskState.TASK_STATE_WORKING);
      const artifactId = randomUUID();
      t.artifact([text('chunk-1 ')], { artifactId, append: false, lastChunk: false });
      t.artifact([text('chunk-2')], { artifactId, append: true, lastChunk: true });
      t.status(TaskState.TASK_STATE_COMPLETED);
    },
  ],
  [
    'test-resubscribe-message-id',
    async (t) => {
      t.start();
      t.status(TaskState.TASK_STATE_WORKING);
      await sleep(2 * STREAMING_TIMEOUT_S * 1000);
      t.status(TaskState.TASK_STATE_COMPLETED);
    },
  ],
  ['tck-stream-artifact-text', (t) => streamed(t, [text('Streamed text content')])],
  ['tck-stream-artifact-file', (t) => streamed(t, [raw('tck', 'output.txt', 'text/plain')])],
  ['tck-stream-ordering-001', (t) => streamed(t, [text('Ordered output')])],
  ['tck-stream-001', (t) => streamed(t, [text('Stream hello from TCK')])],
  [
    'tck-stream-002',
    (t) => {
      t.start();
      t.status(TaskState.TASK_STATE_COMPLETED);
    },
  ],
  ['tck-stream-003', (t) => streamed(t, [text('Stream task lifecycle')])],
  [
    'tck-artifact-file-url',
    (t) => withArtifact(t, [url('https://example.com/output.txt', 'output.txt', 'text/plain')]),
  ],
  ['tck-artifact-file', (t) => withArtifact(t, [raw('tck', 'output.txt', 'text/plain')])],
  ['tck-artifact-text', (t) => withArtifact(t, [text('Generated text content')])],
  ['tck-artifact-data', (t) => withArtifact(t, [data({ key: 'value', count: 42 })])],
  [
    'tck-message-response',
    (t) => {
      t.bus.publish(AgentEvent.message(t.message([text('Direct message response')])));
    },
  ],
  [
    'tck-input-required',
    (t) => {
      t.start();
      t.status(TaskState.TASK_STATE_INPUT_REQUIRED);
    },
  ],
  [
    'tck-complete-task',
    (t) => {
      t.start();
      t.status(TaskState.TASK_STATE_COMPLETED, t.message([text('Hello from TCK')]));
    },
  ],
  [
    'tck-reject-task',
    (t) => {
      t.start();
      t.status(TaskState.TASK_STATE_REJECTED, t.message([text('rejected')]));
    },
  ],
];

function streamed(t: Turn, parts: Part[]): void {
  t.start();
  t.status(TaskState.TASK_STATE_WORKING);
  t.artifact(parts);
  t.status(TaskState.TASK_STATE_COMPLETED);
}

function withArtifact(t: Turn, parts: Part[]): void {
  t.start();
  t.artifact(parts);
  t.status(TaskState.TASK_STATE_COMPLETED);
}

/** The TCK fixture executor; messages without a known prefix go to `fallback`. */
export class TckExecutor implements AgentExecutor {
  /** taskId → contextId of tasks whose bus is still open (INPUT_REQUIRED or a long run). */
  private readonly open = new Map<string, string>();

  constructor(private readonly fallback: AgentExecutor) {}

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const id = ctx.userMessage.messageId ?? '';
    const scenario = SCENARIOS.find(([prefix]) => id.startsWith(prefix))?.[1];
    if (!scenario) return this.fallback.execute(ctx, bus);
    this.open.set(ctx.taskId, ctx.contextId);
    await scenario(new Turn(ctx, bus));
    // No bus.finished(): the SDK settles the bus after execute() resolves (closes it on terminal
    // states, keeps it for INPUT_REQUIRED so follow-ups and subscribers share it).
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const contextId = this.open.get(taskId) ?? '';
    this.open.delete(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: now() },
        metadata: undefined,
      }),
    );
    bus.finished();
  };
}

/** `--port N` from argv (default 9999). */
function portArg(argv: string[]): number {
  const i = argv.indexOf('--port');
  return i >= 0 ? Number(argv[i + 1]) : 9999;
}

async function main(): Promise<void> {
  // Every request ceiling off, stores in a fresh temp dir; the rest from the environment.
  const overrides: RawEnv = {
    SUPERQODE_A2A_PORT: portArg(process.argv),
    SUPERQODE_A2A_TASK_STORE_PATH: join(
      mkdtempSync(join(tmpdir(), 'superqode-tck-')),
      'tasks.sqlite3',
    ),
    SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 0,
    SUPERQODE_A2A_KEYED_PER_MINUTE: 0,
    SUPERQODE_A2A_GLOBAL_PER_DAY: 0,
  };
  const env = loadEnv(overrides);
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(overrides)] })
    .overrideProvider(AGENT_EXECUTOR)
    .useFactory({
      factory: (router: SkillRouter, clock: Clock, ids: IdGenerator) =>
        new TckExecutor(new SkillRouterExecutor(router, clock, ids)),
      inject: [SkillRouter, Clock, IdGenerator],
    })
    .compile();
  const app = configureApp(
    moduleRef.createNestApplication<NestFastifyApplication>(adapterFor(env), { bodyParser: false }),
    { shutdownSignals: SHUTDOWN_SIGNALS },
  );
  await app.listen(env.SUPERQODE_A2A_PORT, env.SUPERQODE_A2A_HOST);
  const base =
    env.SUPERQODE_A2A_PUBLIC_URL ?? `http://${env.SUPERQODE_A2A_HOST}:${env.SUPERQODE_A2A_PORT}`;
  console.log(`TCK SUT listening on ${base} (resubscribe tasks run ${2 * STREAMING_TIMEOUT_S}s)`);
}

if (require.main === module) {
  main().catch((err: Error) => {
    console.error(err.stack ?? err.message);
    process.exit(1);
  });
}
