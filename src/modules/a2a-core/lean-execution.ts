import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Role, TaskState } from '@a2a-js/sdk';
import type { Message, Task } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { AgentEvent } from '@a2a-js/sdk/server';
import type {
  AgentExecutionEvent,
  AgentExecutor,
  ExecutionEventBus,
  RequestContext,
} from '@a2a-js/sdk/server';
import type { LeanTurns } from './lean-turns';

const logger = new Logger('LeanExecution');

/** States that keep an execution's bus open after the executor returns (SDK default). */
const KEEP_BUS_ALIVE: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

/**
 * Runs the executor without awaiting it, as the SDK's `_runStreamExecutor` does for both send
 * paths: a rejection becomes a FAILED status (after a synthetic Task when none was published), and
 * once it settles the bus is finished and dropped unless the last state is INPUT_REQUIRED or
 * AUTH_REQUIRED (follow-up turns and subscribers share it).
 * The bus is finished and dropped only once `durable()` (the execution's last state saved) has
 * settled: until then CancelTask and SubscribeToTask find the execution and answer from its live
 * state. Dropped earlier, they would read the store's older state while the last save waits
 * behind an earlier one, and a CancelTask could write CANCELED over a task whose COMPLETED save
 * then lands (found in review; the saves of one event-loop turn resolve together, in the next
 * check phase).
 * @param turns - Ends the execution: its live state and its bus are dropped ({@link LeanTurns.end}).
 * @param durable - Resolves (or rejects: the store failed) once the last state is stored.
 */
export function runExecution(
  executor: AgentExecutor,
  turns: Pick<LeanTurns, 'end'>,
  bus: ExecutionEventBus,
  request: RequestContext,
  durable: () => Promise<void>,
): void {
  let lastTask: Task | undefined;
  let lastState: TaskState | undefined;
  const track = (event: AgentExecutionEvent): void => {
    if (event.kind === 'task') lastTask = event.data;
    if (event.kind === 'task' || event.kind === 'statusUpdate')
      lastState = event.data.status?.state ?? lastState;
  };
  bus.on('event', track);
  executor
    .execute(request, bus)
    .catch((err: unknown) => {
      logger.error(
        `Agent execution failed for message ${request.userMessage.messageId}`,
        (err as Error)?.stack,
      );
      const text = `Agent execution error: ${err instanceof Error ? err.message : String(err)}`;
      const taskId = lastTask?.id ?? request.taskId;
      const contextId = lastTask?.contextId ?? request.contextId;
      const status = {
        state: TaskState.TASK_STATE_FAILED,
        message: failure(taskId, contextId, text),
        timestamp: new Date().toISOString(),
      };
      if (!lastTask) {
        const history = [...(request.task?.history ?? [])];
        if (!history.some((m) => m.messageId === request.userMessage.messageId))
          history.push(request.userMessage);
        bus.publish(
          AgentEvent.task({ id: taskId, contextId, status, artifacts: [], history, metadata: {} }),
        );
      }
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status, metadata: {} }));
    })
    .finally(() => {
      bus.off('event', track);
      if (lastState !== undefined && KEEP_BUS_ALIVE.has(lastState)) return;
      void durable()
        .catch(() => undefined)
        .then(() => {
          bus.finished();
          turns.end(bus, request.taskId, request.context);
        });
    });
}

/** An agent text message explaining a failure. */
export function failure(taskId: string, contextId: string, text: string): Message {
  return {
    role: Role.ROLE_AGENT,
    messageId: randomUUID(),
    taskId,
    contextId,
    parts: [
      {
        content: { $case: 'text', value: text },
        mediaType: 'text/plain',
        filename: '',
        metadata: {},
      },
    ],
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

/** Stream shape so far: undetermined, a lone Message, or a task lifecycle (SDK `StreamPattern`). */
export type StreamPattern = 'undetermined' | 'message-only' | 'task-lifecycle';

/**
 * SDK `_advanceStreamPattern`: a stream starts with a Message (and ends) or a Task (then only
 * status and artifact updates follow).
 * @throws {UnsupportedOperationError} Any other order.
 */
export function advanceStreamPattern(
  event: AgentExecutionEvent,
  pattern: StreamPattern,
): StreamPattern {
  if (pattern === 'undetermined') {
    if (event.kind === 'message') return 'message-only';
    if (event.kind === 'task') return 'task-lifecycle';
    throw new UnsupportedOperationError(
      `Received ${event.kind} before initial 'Message'/'Task' event.`,
    );
  }
  if (pattern === 'message-only') {
    throw new UnsupportedOperationError(`Received ${event.kind} after message-only response.`);
  }
  if (event.kind !== 'statusUpdate' && event.kind !== 'artifactUpdate') {
    throw new UnsupportedOperationError(
      `Stream ordering violation: received ${event.kind} in task lifecycle stream.`,
    );
  }
  return pattern;
}

/**
 * `historyLength` semantics of the SDK (undefined: all; ≤ 0: none; N: the last N), applied to a
 * shallow copy: the given task is shared state and stays unchanged.
 */
export function withHistoryLength(task: Task, historyLength: number | undefined): Task {
  if (historyLength === undefined) return task;
  return { ...task, history: historyLength <= 0 ? [] : (task.history ?? []).slice(-historyLength) };
}
