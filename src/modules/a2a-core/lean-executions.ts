import { taskStateToJSON } from '@a2a-js/sdk';
import { Logger } from '@nestjs/common';
import { TaskState } from '@a2a-js/sdk';
import type {
  AgentCard,
  CancelTaskRequest,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from '@a2a-js/sdk';
import {
  A2AError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { AgentEvent, ExecutionEventQueue } from '@a2a-js/sdk/server';
import type {
  AgentExecutionEvent,
  AgentExecutor,
  ExecutionEventBus,
  ExecutionEventBusManager,
  ServerCallContext,
  TaskStore,
} from '@a2a-js/sdk/server';
import { LiveTask, TERMINAL_STATES } from '../tasks/live-task';
import type { PendingTaskWrites } from '../tasks/pending-task-writes';
import { LeanTurns, requireTaskId } from './lean-turns';
import type { Turn } from './lean-turns';
import { advanceStreamPattern, failure, runExecution, withHistoryLength } from './lean-execution';
import type { StreamPattern } from './lean-execution';
import { toStreamResponse } from './stream-responses';
import { TaskStoreClosedError } from '../tasks/task-store-closed.error';

/**
 * SendMessage, SendStreamingMessage, CancelTask and SubscribeToTask without the SDK
 * `DefaultRequestHandler`'s per-event cost (issue #14): the task is held in memory for the life
 * of an execution ({@link LiveTask}: no reload or clone per event; push notifications are not
 * served, so nothing is mapped for them) and written once per state a client can observe: each
 * reply, stream event or first subscribe event is sent only after the state it names (or a later
 * one) is durable, so a task is durable before any reply naming it and a completed task before its
 * reply. With a `GroupCommitTaskStore` the writes of concurrent requests share one commit.
 *
 * Kept from the SDK (1.3.0, `DefaultRequestHandler`): error types, event order (a stream starts
 * with a Task or a Message), blocking vs `returnImmediately` replies, the AUTH_REQUIRED snapshot,
 * `historyLength`, subscribe's first event (the task as of the subscription, then its later
 * events), INPUT_REQUIRED continuation on the same bus, cancel through the executor when running.
 *
 * A task with no execution in this process is handled in one place per operation:
 * {@link cancelTaskNotLiveHere} and {@link subscribeToTaskNotLiveHere}.
 * @see A2A specification §3.1.1–§3.1.6; SDK `DefaultRequestHandler`, `ResultManager`.
 */
export class LeanExecutions {
  private readonly logger = new Logger(LeanExecutions.name);
  private readonly turns: LeanTurns;

  constructor(
    private readonly card: Pick<AgentCard, 'capabilities'>,
    private readonly store: TaskStore,
    private readonly executor: AgentExecutor,
    private readonly buses: ExecutionEventBusManager,
    private readonly pending: PendingTaskWrites,
  ) {
    this.turns = new LeanTurns(card, store, buses, pending);
  }

  /**
   * SendMessage: blocking by default (the final state, or the AUTH_REQUIRED snapshot), or the
   * first Task/Message with `returnImmediately` (the rest is processed in the background).
   * @throws {TaskNotFoundError} A taskId the caller has no task for.
   * @throws {UnsupportedOperationError} A follow-up to a task in a terminal state.
   * @throws {RequestMalformedError} contextId mismatch; no event produced.
   */
  async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const blocking = params.configuration?.returnImmediately !== true;
    const historyLength = params.configuration?.historyLength;
    const turn = await this.turns.begin(params, context);
    const queue = new ExecutionEventQueue(turn.bus);
    runExecution(this.executor, this.turns, turn.bus, turn.request, () => turn.live.flush());
    return new Promise<Message | Task>((resolve, reject) => {
      let answered = false;
      const answer = (result: Message | Task): void => {
        answered = true;
        resolve('status' in result ? withHistoryLength(result, historyLength) : result);
      };
      const drain = async (): Promise<void> => {
        let last: AgentExecutionEvent | undefined;
        for await (const event of queue.events()) {
          last = event;
          await turn.live.flush();
          if (answered) continue;
          const state = event.kind === 'statusUpdate' ? event.data.status?.state : undefined;
          if (!blocking || state === TaskState.TASK_STATE_AUTH_REQUIRED) {
            const first = event.kind === 'message' ? event.data : turn.live.stateAfter(event);
            if (first) answer(first);
          }
        }
        if (answered) return;
        const final = last?.kind === 'message' ? last.data : last && turn.live.stateAfter(last);
        if (final) answer(final);
        else if (blocking) {
          reject(
            new A2AError('Agent execution finished without a result, and no task context found.'),
          );
        } else {
          reject(
            new RequestMalformedError('Execution finished before a message or task was produced.'),
          );
        }
      };
      drain()
        .catch((err: unknown) => (answered ? this.failAfterReply(turn, err) : reject(err as Error)))
        .finally(() => queue.stop());
    });
  }

  /**
   * SendStreamingMessage: each event once the state it reflects is durable; Task events carry
   * the task as of that event.
   * @throws {UnsupportedOperationError} Streaming off in the card; events out of order (mid-stream).
   */
  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    if (!this.card.capabilities?.streaming) {
      throw new UnsupportedOperationError('Streaming is not supported.');
    }
    const historyLength = params.configuration?.historyLength;
    const turn = await this.turns.begin(params, context);
    const queue = new ExecutionEventQueue(turn.bus);
    runExecution(this.executor, this.turns, turn.bus, turn.request, () => turn.live.flush());
    let pattern: StreamPattern = 'undetermined';
    try {
      for await (const event of queue.events()) {
        pattern = advanceStreamPattern(event, pattern);
        await turn.live.flush();
        if (event.kind === 'task') {
          const task = turn.live.stateAfter(event) ?? event.data;
          yield { payload: { $case: 'task', value: withHistoryLength(task, historyLength) } };
        } else {
          yield toStreamResponse(event);
        }
      }
    } finally {
      queue.stop();
    }
  }

  /**
   * SubscribeToTask: first the task as it is now (durable), then its later events.
   * @throws {UnsupportedOperationError} Streaming off, or the task is in a terminal state.
   * @throws {TaskNotFoundError} No such task for the caller.
   */
  async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    if (!this.card.capabilities?.streaming) {
      throw new UnsupportedOperationError('Streaming (and thus resubscription) is not supported.');
    }
    requireTaskId(params.id);
    const bus = this.buses.getByTaskId(params.id, context);
    const live = bus ? this.turns.liveOf(bus) : undefined;
    if (!bus || !live?.current()) {
      yield* this.subscribeToTaskNotLiveHere(params, context);
      return;
    }
    // Taken with the queue in the same turn: nothing is missed or sent twice.
    const queue = new ExecutionEventQueue(bus);
    try {
      const now = live.current()!;
      await live.flush();
      assertSubscribable(now, params.id);
      yield { payload: { $case: 'task', value: now } };
      for await (const event of queue.events()) {
        if (event.kind === 'message' || eventTaskId(event) !== params.id) continue;
        await live.flush();
        yield toStreamResponse(event);
      }
    } finally {
      queue.stop();
    }
  }

  /**
   * SubscribeToTask for a task with no live execution in this process: the stored task, then the
   * stream ends (no events can follow here). The one place where events of an execution on
   * another instance would be joined (issue #15, PostgreSQL LISTEN/NOTIFY).
   * @throws {TaskNotFoundError} No such task for the caller.
   * @throws {UnsupportedOperationError} The task is in a terminal state.
   */
  async *subscribeToTaskNotLiveHere(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const task = await this.store.load(params.id, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    assertSubscribable(task, params.id);
    yield { payload: { $case: 'task', value: task } };
  }

  /**
   * CancelTask: through the executor when the task runs here, else
   * {@link cancelTaskNotLiveHere}; a task already CANCELED is returned as it is.
   * @throws {TaskNotFoundError} No such task for the caller.
   * @throws {TaskNotCancelableError} Another terminal state, also when it is reached first.
   */
  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    requireTaskId(params.id);
    const bus = this.buses.getByTaskId(params.id, context);
    const live = bus ? this.turns.liveOf(bus) : undefined;
    const task = live?.current();
    if (!bus || !live || !task) return this.cancelTaskNotLiveHere(params, context);
    if (task.status?.state === TaskState.TASK_STATE_CANCELED) return task;
    assertCancelable(task, params.id);
    await this.cancelRunning(params.id, bus, live);
    // A paused (INPUT_REQUIRED/AUTH_REQUIRED) execution kept its bus open; it ends here.
    if (this.buses.getByTaskId(params.id, context) === bus) {
      this.turns.end(bus, params.id, context);
    }
    return cancelled(live, params.id);
  }

  /**
   * CancelTask of a task with no live execution in this process: the stored task is written
   * CANCELED directly (a task already CANCELED is returned as it is). The one place where a task
   * running on another instance would be cancelled there instead (issue #15, LISTEN/NOTIFY).
   * @throws {TaskNotFoundError} No such task for the caller.
   * @throws {TaskNotCancelableError} The task is in another terminal state.
   */
  async cancelTaskNotLiveHere(
    params: CancelTaskRequest,
    context: ServerCallContext,
  ): Promise<Task> {
    const task = await this.store.load(params.id, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    if (task.status?.state === TaskState.TASK_STATE_CANCELED) return task;
    assertCancelable(task, params.id);
    const live = new LiveTask(this.store, context, task, this.pending);
    const message = failure(task.id, task.contextId, 'Task cancellation requested by user.');
    live.apply(
      AgentEvent.statusUpdate({
        taskId: task.id,
        contextId: task.contextId,
        metadata: {},
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message,
          timestamp: new Date().toISOString(),
        },
      }),
    );
    await live.flush();
    return cancelled(live, params.id);
  }

  /** Asks the executor to cancel and waits until its events have ended the execution. */
  private async cancelRunning(
    taskId: string,
    bus: ExecutionEventBus,
    live: LiveTask,
  ): Promise<void> {
    const queue = new ExecutionEventQueue(bus);
    try {
      await this.executor.cancelTask(taskId, bus);
      for await (const event of queue.events()) if (event) await live.flush();
    } finally {
      queue.stop();
    }
    await live.flush();
  }

  /** A store failure after the reply went out: the task is marked FAILED if it can still be. */
  private failAfterReply(turn: Turn, err: unknown): void {
    const task = turn.live.current();
    // Shutting down: the store said so once; there is nowhere to record FAILED either.
    if (err instanceof TaskStoreClosedError) return;
    this.logger.error(
      `Event processing failed for task ${turn.request.taskId}`,
      (err as Error)?.stack,
    );
    if (!task) return;
    const text = `Event processing loop failed: ${err instanceof Error ? err.message : 'Unknown error'}`;
    const message = failure(task.id, task.contextId, text);
    turn.live.apply(
      AgentEvent.statusUpdate({
        taskId: task.id,
        contextId: task.contextId,
        metadata: {},
        status: {
          state: TaskState.TASK_STATE_FAILED,
          message,
          timestamp: new Date().toISOString(),
        },
      }),
    );
    turn.live.flush().catch((e: unknown) => {
      if (!(e instanceof TaskStoreClosedError))
        this.logger.error(`Could not store FAILED for task ${task.id}`, (e as Error)?.stack);
    });
  }
}

function eventTaskId(event: AgentExecutionEvent): string | undefined {
  if (event.kind === 'task') return event.data.id;
  return event.data.taskId;
}

/** @throws {UnsupportedOperationError} The task is in a terminal state. */
function assertSubscribable(task: Task, id: string): void {
  const state = task.status?.state;
  if (state !== undefined && TERMINAL_STATES.has(state)) {
    throw new UnsupportedOperationError(
      `Task ${id} is in a terminal state (${taskStateToJSON(state)}) and cannot be subscribed to.`,
    );
  }
}

/** @throws {TaskNotCancelableError} The task is in a terminal state. */
function assertCancelable(task: Task, id: string): void {
  const state = task.status?.state;
  if (state !== undefined && TERMINAL_STATES.has(state)) {
    throw new TaskNotCancelableError(`Task not cancelable: ${id}`);
  }
}

/** @throws {TaskNotCancelableError} The task ended in another state first. */
function cancelled(live: LiveTask, id: string): Task {
  const latest = live.current();
  if (latest?.status?.state !== TaskState.TASK_STATE_CANCELED) {
    throw new TaskNotCancelableError(`Task not cancelable: ${id}`);
  }
  return latest;
}
