import { Role, TaskState } from '@a2a-js/sdk';
import type { ListTasksRequest, Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { Test } from '@nestjs/testing';
import type { TestingModule } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../common/runtime/clock';
import { TASK_STORE } from './tasks.constants';
import { TasksModule } from './tasks.module';
import { TasksService } from './tasks.service';
import type { TypeOrmTaskStore } from './typeorm-task.store';

const LEASE_MS = 1_000;
const ctxOf = (userName: string) =>
  new ServerCallContext({ user: { isAuthenticated: true, userName } });
const alice = ctxOf('alice');
const listAll: ListTasksRequest = {
  tenant: '',
  contextId: '',
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageSize: 10,
  pageToken: '',
  historyLength: 0,
  statusTimestampAfter: undefined,
  includeArtifacts: false,
};

function working(id: string, now: Date): Task {
  return {
    id,
    contextId: 'ctx-1',
    metadata: undefined,
    status: {
      state: TaskState.TASK_STATE_WORKING,
      message: undefined,
      timestamp: now.toISOString(),
    },
    artifacts: [],
    history: [
      {
        messageId: `m-${id}`,
        contextId: 'ctx-1',
        taskId: id,
        role: Role.ROLE_USER,
        parts: [],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
    ],
  };
}

describe(TasksService.name, () => {
  let dir: string;
  let moduleRef: TestingModule;
  let tasks: TasksService;
  let now: Date;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tasks-service-'));
    now = new Date(); // leases are renewed with the store's wall clock
    moduleRef = await Test.createTestingModule({
      imports: [TasksModule.forRoot({ path: join(dir, 't.sqlite3'), leaseMs: LEASE_MS })],
    })
      .overrideProvider(Clock)
      .useValue({ now: () => now, isoNow: () => now.toISOString() })
      .compile();
    tasks = moduleRef.get(TasksService);
    await moduleRef.get<TypeOrmTaskStore>(TASK_STORE).save(working('t-1', now), alice);
  });

  afterEach(async () => {
    await moduleRef.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads stored tasks scoped to the caller, as the SDK store does', async () => {
    expect((await tasks.get('t-1', alice))?.id).toBe('t-1');
    expect(await tasks.get('t-1', ctxOf('bob'))).toBeUndefined();
    expect((await tasks.list(listAll, alice)).tasks.map((t) => t.id)).toEqual(['t-1']);
    expect((await tasks.list(listAll, ctxOf('bob'))).tasks).toEqual([]);
  });

  it('leaves work whose lease is live alone', async () => {
    expect((await tasks.failOrphaned()).tasks).toEqual([]);
    expect((await tasks.get('t-1', alice))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
  });

  it('fails work whose lease expired, naming the owner; a dry run only lists it', async () => {
    now = new Date(now.getTime() + 3 * LEASE_MS);
    const dry = await tasks.failOrphaned({ dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, tasks: [{ taskId: 't-1' }] });
    expect((await tasks.get('t-1', alice))?.status?.state).toBe(TaskState.TASK_STATE_WORKING);

    const told: string[] = [];
    tasks.onOrphansFailed(async (batch) => {
      told.push(...batch.map((t) => t.taskId));
    });
    const done = await tasks.failOrphaned();
    expect(done.tasks.map((t) => t.taskId)).toEqual(['t-1']);
    expect(told).toEqual(['t-1']);
    const failed = await tasks.get('t-1', alice);
    expect(failed?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(JSON.stringify(failed?.status?.message)).toContain(done.tasks[0].leaseOwner ?? '?');
  });

  it('reports the store reachable and writable', async () => {
    expect(await tasks.health()).toMatchObject({
      reachable: true,
      writable: true,
      failedWrites: 0,
    });
    expect(tasks.leaseMs).toBe(LEASE_MS);
  });
});
