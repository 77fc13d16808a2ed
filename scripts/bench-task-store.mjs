// Write/read throughput of TypeOrmTaskStore on SQLite, and the write paths it was chosen over.
// Usage: npm run build && node scripts/bench-task-store.mjs [count]
// (BENCH_DIST=<dir> points at another build output; default dist/.) Dev tool, not a test.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const dist = resolve(process.env.BENCH_DIST ?? 'dist');
const { DataSource } = require('typeorm');
const { Task, TaskState, Role } = require('@a2a-js/sdk');
const { ServerCallContext } = require('@a2a-js/sdk/server');
const tasksDir = join(dist, 'modules/tasks');
const { tasksDataSourceOptions } = require(join(tasksDir, 'tasks-datasource.js'));
const { TaskEntity, toTaskEntity, UPSERT_TASK_SQL, taskRowValues } = require(
  join(tasksDir, 'task.entity.js'),
);
const { TypeOrmTaskStore } = require(join(tasksDir, 'typeorm-task.store.js'));

const count = Number(process.argv[2] ?? 20_000);
const ctx = new ServerCallContext({ user: { isAuthenticated: true, userName: 'bench' } });
const scope = { tenant: '', owner: 'bench' };

function aTask(i, state = TaskState.TASK_STATE_WORKING) {
  const text = (value) => ({
    content: { $case: 'text', value },
    metadata: undefined,
    filename: '',
    mediaType: 'text/plain',
  });
  const message = (id, role, value) => ({
    messageId: id,
    contextId: 'ctx-1',
    taskId: `task-${i}`,
    role,
    parts: [text(value)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  });
  return Task.fromJSON(
    Task.toJSON({
      id: `task-${i}`,
      contextId: `ctx-${i % 50}`,
      status: {
        state,
        message: undefined,
        timestamp: new Date(1_700_000_000_000 + i).toISOString(),
      },
      artifacts: [
        {
          artifactId: 'a1',
          name: 'answer',
          description: '',
          parts: [text('x'.repeat(200))],
          metadata: undefined,
          extensions: [],
        },
      ],
      history: [
        message(`m-${i}`, Role.ROLE_USER, 'hello there'),
        message(`r-${i}`, Role.ROLE_AGENT, 'working on it'),
      ],
      metadata: { skill: 'shortlist' },
    }),
  );
}

async function rate(label, n, fn) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn(i);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(
    `${label.padEnd(44)} ${Math.round(n / seconds)
      .toString()
      .padStart(8)} ops/s`,
  );
}

async function run(label, path) {
  const dataSource = await new DataSource(tasksDataSourceOptions(path)).initialize();
  const store = new TypeOrmTaskStore(dataSource);
  const repo = dataSource.getRepository(TaskEntity);
  const tasks = Array.from({ length: count }, (_, i) => aTask(i));
  const done = tasks.map((t) => ({
    ...t,
    status: { ...t.status, state: TaskState.TASK_STATE_COMPLETED },
  }));
  console.log(`\n${label} (${count} tasks)`);
  await rate('store.save insert (prepared upsert)', count, (i) => store.save(tasks[i], ctx));
  await rate('store.save update (prepared upsert)', count, (i) => store.save(done[i], ctx));
  const upsertOptions = {
    conflictPaths: ['tenant', 'owner', 'id'],
    skipUpdateIfNoValuesChanged: false,
  };
  await rate('repository.upsert (same rows, update)', count, (i) =>
    repo.upsert(toTaskEntity(scope, tasks[i], Date.now()), upsertOptions),
  );
  await rate('dataSource.query upsert (update)', count, (i) =>
    dataSource.query(UPSERT_TASK_SQL, taskRowValues(toTaskEntity(scope, done[i], Date.now()))),
  );
  await rate('store.load', count, (i) => store.load(`task-${i}`, ctx));
  await rate('store.list pageSize 50 (first page)', 1000, () => store.list({ pageSize: 50 }, ctx));
  await dataSource.destroy();
}

const dir = mkdtempSync(join(tmpdir(), 'bench-task-store-'));
try {
  await run('SQLite file, WAL, synchronous=NORMAL', join(dir, 'tasks.sqlite3'));
  await run('SQLite :memory:', null);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
