import { TaskState } from '@a2a-js/sdk';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import {
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import {
  AgentEvent,
  DefaultExecutionEventBusManager,
  InMemoryTaskStore,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { MemoryTaskStore } from '../tasks/memory-task.store';
import { PendingTaskWrites } from '../tasks/pending-task-writes';
import { LeanExecutions } from './lean-executions';

const ctx = new ServerCallContext();
const aTask = (id: string, state: TaskState): Task => ({
  id,
  contextId: 'ctx-1',
  metadata: {},
  status: { state, message: undefined, timestamp: '2026-01-01T00:00:00.000Z' },
  artifacts: [],
  history: [],
});

/** A status-update event of task `taskId` (no message, no timestamp). */
const statusEvent = (taskId: string, state: TaskState) =>
  AgentEvent.statusUpdate({
    taskId,
    contextId: 'ctx-1',
    metadata: {},
    status: { state, message: undefined, timestamp: '' },
  });

/** An executor that publishes a WORKING task and waits until cancelled. */
function waitingExecutor(): AgentExecutor & { started: Promise<void> } {
  let started!: () => void;
  const promise = new Promise<void>((r) => (started = r));
  return {
    started: promise,
    execute(request: RequestContext, bus: ExecutionEventBus) {
      bus.publish(AgentEvent.task(aTask(request.taskId, TaskState.TASK_STATE_WORKING)));
      started();
      return new Promise<void>((resolve) => bus.on('finished', () => resolve()));
    },
    cancelTask(taskId: string, bus: ExecutionEventBus) {
      bus.publish(statusEvent(taskId, TaskState.TASK_STATE_CANCELED));
      bus.finished();
      return Promise.resolve();
    },
  };
}

const userMessage = () => ({
  messageId: `m-${Math.random()}`,
  role: 1,
  parts: [
    { content: { $case: 'text' as const, value: 'hi' }, metadata: {}, filename: '', mediaType: '' },
  ],
  metadata: {},
  extensions: [],
  referenceTaskIds: [],
  taskId: '',
  contextId: '',
});

async function all(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const r of stream) out.push(r);
  return out;
}

describe(LeanExecutions.name, () => {
  let store: InMemoryTaskStore;
  const make = (executor: AgentExecutor = waitingExecutor()) =>
    new LeanExecutions(
      { capabilities: { streaming: true, pushNotifications: false, extensions: [] } as never },
      store,
      executor,
      new DefaultExecutionEventBusManager(),
      new PendingTaskWrites(),
    );
  beforeEach(() => (store = new InMemoryTaskStore()));

  describe('a task with no live execution here (cancelTaskNotLiveHere)', () => {
    it('stores it CANCELED with a status message and returns that state', async () => {
      await store.save(aTask('t-1', TaskState.TASK_STATE_INPUT_REQUIRED), ctx);
      const got = await make().cancelTask({ id: 't-1', tenant: '', metadata: {} }, ctx);
      expect(got.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect((await store.load('t-1', ctx))?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect(got.status?.message?.parts[0].content).toEqual({
        $case: 'text',
        value: 'Task cancellation requested by user.',
      });
    });

    it('returns a CANCELED task as it is, refuses another terminal state, and an unknown id', async () => {
      await store.save(aTask('done', TaskState.TASK_STATE_COMPLETED), ctx);
      await store.save(aTask('gone', TaskState.TASK_STATE_CANCELED), ctx);
      const core = make();
      const cancel = (id: string) => core.cancelTask({ id, tenant: '', metadata: {} }, ctx);
      expect((await cancel('gone')).status?.timestamp).toBe('2026-01-01T00:00:00.000Z');
      await expect(cancel('done')).rejects.toBeInstanceOf(TaskNotCancelableError);
      await expect(cancel('none')).rejects.toBeInstanceOf(TaskNotFoundError);
    });
  });

  describe('a task with no live execution here (subscribeToTaskNotLiveHere)', () => {
    it('sends the stored task once, then ends; a terminal task is refused', async () => {
      await store.save(aTask('t-1', TaskState.TASK_STATE_INPUT_REQUIRED), ctx);
      await store.save(aTask('done', TaskState.TASK_STATE_COMPLETED), ctx);
      const core = make();
      const events = await all(core.resubscribe({ id: 't-1', tenant: '' }, ctx));
      expect(events.map((e) => e.payload?.$case)).toEqual(['task']);
      await expect(all(core.resubscribe({ id: 'done', tenant: '' }, ctx))).rejects.toBeInstanceOf(
        UnsupportedOperationError,
      );
      // The state by its name, not the enum's number (a client prints this message).
      await expect(all(core.resubscribe({ id: 'done', tenant: '' }, ctx))).rejects.toThrow(
        'is in a terminal state (TASK_STATE_COMPLETED)',
      );
      await expect(all(core.resubscribe({ id: 'x', tenant: '' }, ctx))).rejects.toBeInstanceOf(
        TaskNotFoundError,
      );
    });
  });

  it('cancels a paused (INPUT_REQUIRED) execution here and drops its bus', async () => {
    const buses = new DefaultExecutionEventBusManager();
    const paused: AgentExecutor = {
      execute(request: RequestContext, bus: ExecutionEventBus) {
        bus.publish(AgentEvent.task(aTask(request.taskId, TaskState.TASK_STATE_WORKING)));
        bus.publish(statusEvent(request.taskId, TaskState.TASK_STATE_INPUT_REQUIRED));
        return Promise.resolve();
      },
      cancelTask: waitingExecutor().cancelTask,
    };
    const core = new LeanExecutions(
      { capabilities: { streaming: true } as never },
      store,
      paused,
      buses,
      new PendingTaskWrites(),
    );
    const first = (await core.sendMessage(
      { tenant: '', message: userMessage() } as never,
      ctx,
    )) as Task;
    expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(buses.getByTaskId(first.id, ctx)).toBeDefined();
    const got = await core.cancelTask({ id: first.id, tenant: '', metadata: {} }, ctx);
    expect(got.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(buses.getByTaskId(first.id, ctx)).toBeUndefined();
    expect((await store.load(first.id, ctx))?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('cancels a task running here through the executor, and the CANCELED state is stored', async () => {
    const executor = waitingExecutor();
    const core = make(executor);
    const message = {
      messageId: 'm-1',
      role: 1,
      parts: [
        {
          content: { $case: 'text' as const, value: 'hi' },
          metadata: {},
          filename: '',
          mediaType: '',
        },
      ],
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
      taskId: '',
      contextId: '',
    };
    const first = await core.sendMessage(
      { tenant: '', message, configuration: { returnImmediately: true } } as never,
      ctx,
    );
    await executor.started;
    const id = (first as Task).id;
    const got = await core.cancelTask({ id, tenant: '', metadata: {} }, ctx);
    expect(got.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await store.load(id, ctx))?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('a CancelTask before the last state is stored is refused: the execution stays live until then', async () => {
    // MemoryTaskStore resolves saves in the next check phase; the follow-up's COMPLETED save waits
    // behind its WORKING save, and the cancel comes within the same pass of the event loop.
    const memory = new MemoryTaskStore();
    let turns = 0;
    const executor: AgentExecutor = {
      async execute(request: RequestContext, bus: ExecutionEventBus) {
        if (turns++ === 0) {
          bus.publish(AgentEvent.task(aTask(request.taskId, TaskState.TASK_STATE_WORKING)));
          bus.publish(statusEvent(request.taskId, TaskState.TASK_STATE_INPUT_REQUIRED));
          return;
        }
        bus.publish(statusEvent(request.taskId, TaskState.TASK_STATE_WORKING));
        for (let i = 0; i < 5; i++) await Promise.resolve();
        bus.publish(statusEvent(request.taskId, TaskState.TASK_STATE_COMPLETED));
      },
      cancelTask: () => Promise.resolve(),
    };
    const core = new LeanExecutions(
      { capabilities: { streaming: true } as never },
      memory,
      executor,
      new DefaultExecutionEventBusManager(),
      new PendingTaskWrites(),
    );
    const first = (await core.sendMessage(
      { tenant: '', message: userMessage() } as never,
      ctx,
    )) as Task;
    const followUp = { ...userMessage(), taskId: first.id };
    const reply = core.sendMessage({ tenant: '', message: followUp } as never, ctx);
    for (let i = 0; i < 200; i++) await Promise.resolve();
    await expect(
      core.cancelTask({ id: first.id, tenant: '', metadata: {} }, ctx),
    ).rejects.toBeInstanceOf(TaskNotCancelableError);
    expect(((await reply) as Task).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await memory.load(first.id, ctx))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
