// CPU per blocking SendMessage inside the SDK's DefaultRequestHandler and inside our lean core
// (LeanExecutions over a group-committing store, issue #14), without HTTP: where the time of
// `npm run bench`'s SendMessage goes once the framework is out of the picture.
// Usage: npm run build && node scripts/bench-sdk-core.mjs [count]   (npm run bench:core)
// Agents: (echo) the Express reference's executor (scripts/bench-echo-agent.mjs: Task SUBMITTED, then
// a COMPLETED status update, ~1 KB); (shortlist) this project's ShortlistSkill on the shipped catalogue (one
// finished Task event, ~6 KB). Stores: by reference (keeps the objects, no copy), the SDK's
// InMemoryTaskStore, our MemoryTaskStore, TypeOrmTaskStore on ':memory:' and on a SQLite file
// (temp dir, removed after).
// Each case: `count` sequential calls after a warm-up, CPU time of this process (user + system)
// per call. Pinned to one CPU with taskset when present (BENCH_SERVER_CPU, default 0; BENCH_PIN=0
// disables), as the servers of `npm run bench` are. Dev tool, not a test.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { hasTaskset, pinSelf } from './bench-lib.mjs';
import { echoExecutor as echo, text } from './bench-echo-agent.mjs';

const require = createRequire(import.meta.url);
const dist = resolve(process.env.BENCH_DIST ?? 'dist');
const { DataSource } = require('typeorm');
const { Role, TaskState } = require('@a2a-js/sdk');
const {
  DefaultRequestHandler,
  InMemoryTaskStore,
  ServerCallContext,
} = require('@a2a-js/sdk/server');
const { tasksDataSourceOptions } = require(join(dist, 'modules/tasks/tasks-datasource.js'));
const { TypeOrmTaskStore } = require(join(dist, 'modules/tasks/typeorm-task.store.js'));
const { MemoryTaskStore } = require(join(dist, 'modules/tasks/memory-task.store.js'));
const { CatalogueService } = require(join(dist, 'modules/shortlist/catalogue.service.js'));
const { ShortlistService } = require(join(dist, 'modules/shortlist/shortlist.service.js'));
const { ShortlistSkill } = require(join(dist, 'modules/shortlist/shortlist.skill.js'));
const { Clock, IdGenerator } = require(join(dist, 'common/runtime/clock.js'));
const { LeanExecutions } = require(join(dist, 'modules/a2a-core/lean-executions.js'));
const { GroupCommitTaskStore } = require(join(dist, 'modules/tasks/group-commit.task-store.js'));
const { PendingTaskWrites } = require(join(dist, 'modules/tasks/pending-task-writes.js'));
const { DefaultExecutionEventBusManager } = require('@a2a-js/sdk/server');
const { Logger } = require('@nestjs/common');

Logger.overrideLogger(['warn', 'error']);

const count = Number(process.argv[2] ?? 3000);
if (!Number.isInteger(count) || count < 1)
  throw new Error(`count must be a positive integer, got ${process.argv[2]}`);
const warmup = Math.min(1000, count);
const pinned = process.env.BENCH_PIN !== '0' && hasTaskset();
if (pinned) pinSelf(Number(process.env.BENCH_SERVER_CPU ?? 0));

const card = {
  name: 'bench',
  description: 'bench',
  version: '1',
  supportedInterfaces: [],
  skills: [],
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
};
const submitted = (ctx) => ({
  id: ctx.taskId,
  contextId: ctx.contextId,
  artifacts: [],
  history: [ctx.userMessage],
  metadata: {},
  status: {
    state: TaskState.TASK_STATE_SUBMITTED,
    message: undefined,
    timestamp: new Date().toISOString(),
  },
});

/** This project's shortlist skill (keyword parser, no model), as the router runs it for a new task. */
const skill = new ShortlistSkill(
  new ShortlistService(new CatalogueService()),
  { understandRequests: false, shortlistEnabled: true },
  new Clock(),
  new IdGenerator(),
  { read: async () => ({}) },
);
const shortlist = {
  execute: (ctx, bus) => skill.execute(ctx, bus, submitted(ctx)),
  async cancelTask() {},
};

/** Keeps the saved objects themselves (no copy, no encoding; last 1,000): the SDK core alone. */
function referenceStore() {
  const tasks = new Map();
  return {
    async save(task) {
      tasks.set(task.id, task);
      if (tasks.size > 1000) tasks.delete(tasks.keys().next().value);
    },
    load: async (id) => tasks.get(id),
    list: async () => ({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 }),
  };
}

async function ourStore(path) {
  const ds = new DataSource({ ...tasksDataSourceOptions(path), name: `bench-${randomUUID()}` });
  await ds.initialize();
  return { store: new TypeOrmTaskStore(ds), close: () => ds.destroy() };
}

/** The SDK's handler, or our lean core (over group commit when the store is ours). */
function handlerOf(kind, store, executor) {
  if (kind === 'sdk') return new DefaultRequestHandler(card, store, executor);
  const grouped = store instanceof TypeOrmTaskStore ? new GroupCommitTaskStore(store) : store;
  const buses = new DefaultExecutionEventBusManager();
  return new LeanExecutions(card, grouped, executor, buses, new PendingTaskWrites());
}

async function measure(store, executor, kind) {
  const handler = handlerOf(kind, store, executor);
  const ctx = new ServerCallContext({ user: { isAuthenticated: false, userName: 'anonymous' } });
  const send = () =>
    handler.sendMessage(
      {
        message: {
          messageId: randomUUID(),
          role: Role.ROLE_USER,
          contextId: '',
          taskId: '',
          parts: [text('which harness for rust')],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
      },
      ctx,
    );
  const first = await send();
  if (first.status?.state !== TaskState.TASK_STATE_COMPLETED)
    throw new Error(`not completed: ${JSON.stringify(first.status)}`);
  for (let i = 1; i < warmup; i++) await send();
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) await send();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

const dir = mkdtempSync(join(tmpdir(), 'superqode-bench-core-'));
const rows = [];
try {
  for (const [agentName, executor] of [
    ['echo', echo],
    ['shortlist', shortlist],
  ]) {
    const stores = [
      ['by reference (no copy)', async () => ({ store: referenceStore(), close: async () => {} })],
      [
        'SDK InMemoryTaskStore',
        async () => ({ store: new InMemoryTaskStore(), close: async () => {} }),
      ],
      [
        'ours, MemoryTaskStore (--no-task-store)',
        async () => ({ store: new MemoryTaskStore({ maxTasks: 10_000 }), close: async () => {} }),
      ],
      ['ours, SQLite :memory:', () => ourStore(null)],
      ['ours, SQLite file', () => ourStore(join(dir, `${agentName}.sqlite3`))],
    ];
    for (const [storeName, open] of stores)
      for (const kind of ['sdk', 'lean']) {
        const { store, close } = await open();
        try {
          const us = await measure(store, executor, kind);
          rows.push([
            agentName,
            kind,
            storeName,
            us.toFixed(0),
            Math.round(1e6 / us).toLocaleString('en-US'),
          ]);
          console.error(`${agentName} / ${kind} / ${storeName}: ${us.toFixed(0)} µs`);
        } finally {
          await close();
        }
      }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const header = [
  'agent',
  'handler',
  'task store',
  'CPU µs per SendMessage',
  'ceiling calls/s on one core',
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) =>
  `| ${cells.map((c, i) => (i >= 3 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
console.log(
  `\n## sendMessage (sdk: DefaultRequestHandler; lean: our core), blocking, in process (${count} calls per row${pinned ? ', pinned' : ', NOT pinned'})\n`,
);
console.log(
  [
    line(header),
    `|${widths.map((w, i) => (i >= 3 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    ...rows.map(line),
  ].join('\n'),
);
