import { Role, TaskState } from '@a2a-js/sdk';
import type { Message, Task } from '@a2a-js/sdk';
import { AgentEvent, DefaultExecutionEventBus, ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskStore } from '@a2a-js/sdk/server';
import { LiveTask } from './live-task';

const ctx = new ServerCallContext();
const text = (value: string) => ({
  content: { $case: 'text' as const, value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});
const userMessage = (messageId: string): Message => ({
  messageId,
  contextId: 'c-1',
  taskId: 't-1',
  role: Role.ROLE_USER,
  parts: [text('hi')],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const aTask = (state = TaskState.TASK_STATE_SUBMITTED): Task => ({
  id: 't-1',
  contextId: 'c-1',
  status: { state, message: undefined, timestamp: '2025-01-01T00:00:00.000Z' },
  artifacts: [],
  history: [],
  metadata: {},
});
const status = (state: TaskState, message?: Message) =>
  AgentEvent.statusUpdate({
    taskId: 't-1',
    contextId: 'c-1',
    status: { state, message, timestamp: '2025-01-01T00:00:01.000Z' },
    metadata: undefined,
  });
const chunk = (value: string, append: boolean) =>
  AgentEvent.artifactUpdate({
    taskId: 't-1',
    contextId: 'c-1',
    append,
    lastChunk: false,
    metadata: undefined,
    artifact: {
      artifactId: 'a-1',
      name: 'out',
      description: '',
      parts: [text(value)],
      metadata: undefined,
      extensions: [],
    },
  });

/** A TaskStore that records what it was asked to save (states as saved, in order). */
function recordingStore(): TaskStore & { saved: string[] } {
  const saved: string[] = [];
  return {
    saved,
    save: async (task: Task) => void saved.push(`${task.status?.state}`),
    load: async () => {
      throw new Error('unexpected load');
    },
    list: async () => {
      throw new Error('unexpected list');
    },
  } as TaskStore & { saved: string[] };
}

describe(LiveTask.name, () => {
  it('applies each event once from the bus, in publish order, and a flush writes the latest state once', async () => {
    const store = recordingStore();
    const bus = new DefaultExecutionEventBus();
    const live = new LiveTask(store, ctx).attach(bus);
    bus.publish(AgentEvent.task(aTask()));
    bus.publish(status(TaskState.TASK_STATE_WORKING));
    await live.flush();
    await live.flush();
    expect(store.saved).toEqual([`${TaskState.TASK_STATE_WORKING}`]);
  });

  it('keeps every state it handed out unchanged while later events arrive (copy-on-write); appended text chunks are one part', () => {
    const live = new LiveTask(recordingStore(), ctx);
    const first = AgentEvent.task(aTask());
    live.apply(first);
    const one = chunk('one ', false);
    live.apply(one);
    live.apply(chunk('two', true));
    expect(live.stateAfter(first)?.artifacts).toEqual([]);
    expect(
      live.stateAfter(one)?.artifacts?.[0].parts.map((p) => (p.content as { value: string }).value),
    ).toEqual(['one ']);
    expect(
      live.current()?.artifacts?.[0].parts.map((p) => (p.content as { value: string }).value),
    ).toEqual(['one two']);
  });

  it("puts the turn's user message first in a Task event lacking it, and appends status messages once", () => {
    const live = new LiveTask(recordingStore(), ctx);
    live.beginTurn(userMessage('u-1'));
    live.apply(AgentEvent.task(aTask()));
    const reply = { ...userMessage('r-1'), role: Role.ROLE_AGENT };
    live.apply(status(TaskState.TASK_STATE_WORKING, reply));
    live.apply(status(TaskState.TASK_STATE_WORKING, reply));
    expect(live.current()?.history?.map((m) => m.messageId)).toEqual(['u-1', 'r-1']);
  });

  it('ignores a status update that would change a terminal state, and writes a terminal state at once', () => {
    const store = recordingStore();
    const live = new LiveTask(store, ctx);
    live.apply(AgentEvent.task(aTask()));
    live.apply(status(TaskState.TASK_STATE_COMPLETED));
    live.apply(status(TaskState.TASK_STATE_FAILED));
    expect(live.current()?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    return live
      .flush()
      .then(() => expect(store.saved).toEqual([`${TaskState.TASK_STATE_COMPLETED}`]));
  });

  it('a failed save rejects the flush of that state; a later state is saved again', async () => {
    let fail = true;
    const store = {
      ...recordingStore(),
      save: async () => {
        if (fail) throw new Error('disk full');
      },
    } as TaskStore;
    const live = new LiveTask(store, ctx);
    live.apply(AgentEvent.task(aTask()));
    await expect(live.flush()).rejects.toThrow('disk full');
    fail = false;
    live.apply(status(TaskState.TASK_STATE_WORKING));
    await expect(live.flush()).resolves.toBeUndefined();
  });
});
