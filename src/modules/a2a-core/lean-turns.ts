import { taskStateToJSON } from '@a2a-js/sdk';
import { timeOrderedId } from '../../common/runtime/time-ordered-id';
import { Logger } from '@nestjs/common';
import type { AgentCard, Message, SendMessageRequest, Task } from '@a2a-js/sdk';
import {
  ExtensionSupportRequiredError,
  RequestMalformedError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { RequestContext } from '@a2a-js/sdk/server';
import type {
  ExecutionEventBus,
  ExecutionEventBusManager,
  ServerCallContext,
  TaskStore,
} from '@a2a-js/sdk/server';
import { LiveTask, TERMINAL_STATES } from '../tasks/live-task';
import type { PendingTaskWrites } from '../tasks/pending-task-writes';

/** One execution turn being started: its request context, bus and live state. */
export interface Turn {
  request: RequestContext;
  bus: ExecutionEventBus;
  live: LiveTask;
}

/**
 * @throws {RequestMalformedError} A missing or blank task id (SDK `_requireValidTaskId`).
 */
export function requireTaskId(taskId: string | undefined): void {
  if (!taskId || taskId.trim() === '') throw new RequestMalformedError('Task ID is required');
}

/**
 * The executions of {@link LeanRequestHandler}: one {@link LiveTask} per event bus, and how a
 * SendMessage turn starts (the SDK's `_createRequestContext`, reading a running task from memory).
 */
export class LeanTurns {
  private readonly logger = new Logger(LeanTurns.name);
  private readonly lives = new WeakMap<ExecutionEventBus, LiveTask>();
  /**
   * @param card - Read for `capabilities.extensions` only.
   * @param saving - Saves of live tasks not yet settled (a graceful stop waits for them).
   */
  constructor(
    private readonly card: Pick<AgentCard, 'capabilities'>,
    private readonly store: TaskStore,
    private readonly buses: ExecutionEventBusManager,
    private readonly saving: PendingTaskWrites,
  ) {}

  /**
   * Ends the execution on `bus`: its live state leaves the map and the bus leaves the manager
   * (`cleanupByTaskId`). At once, not when the bus dies: the map outlives many young-generation
   * collections, and an entry left in it kept the task's states alive through them, promoted to
   * the old space (shortlist/SQLite: 6.6 KB promoted per SendMessage with the entry left in, 5.1
   * KB with it taken out; issue #14).
   */
  end(bus: ExecutionEventBus, taskId: string, context: ServerCallContext | undefined): void {
    this.lives.delete(bus);
    this.buses.cleanupByTaskId(taskId, context);
  }

  /** The live state of the execution on `bus`, if one runs there. */
  liveOf(bus: ExecutionEventBus): LiveTask | undefined {
    return this.lives.get(bus);
  }

  /**
   * Starts a turn (SDK `_createRequestContext`), with the task of a follow-up from memory when it
   * is running: the bus (new or the follow-up's), its live state and the executor's request context.
   * @throws {ExtensionSupportRequiredError} A required extension the client did not declare.
   * @throws {TaskNotFoundError} A taskId the caller has no task for.
   * @throws {UnsupportedOperationError} A follow-up to a task in a terminal state.
   * @throws {RequestMalformedError} A blank taskId, or a contextId that is not the task's.
   */
  async begin(params: SendMessageRequest, context: ServerCallContext): Promise<Turn> {
    const incoming = params.message!;
    const offered = this.card.capabilities?.extensions ?? [];
    const requested = new Set(context.requestedExtensions ?? []);
    const missing = offered.filter((e) => e.required && !requested.has(e.uri)).map((e) => e.uri);
    if (missing.length > 0) {
      throw new ExtensionSupportRequiredError(
        `Client must declare support for required extensions: ${missing.join(', ')}`,
      );
    }
    let bus: ExecutionEventBus | undefined;
    let live: LiveTask | undefined;
    let task: Task | undefined;
    if (incoming.taskId) {
      requireTaskId(incoming.taskId);
      bus = this.buses.getByTaskId(incoming.taskId, context);
      live = bus ? this.lives.get(bus) : undefined;
      task = live?.current() ?? (await this.store.load(incoming.taskId, context));
      if (!task) throw new TaskNotFoundError(`Task not found: ${incoming.taskId}`);
      if (task.status?.state !== undefined && TERMINAL_STATES.has(task.status.state)) {
        throw new UnsupportedOperationError(
          `Task ${task.id} is in a terminal state (${taskStateToJSON(task.status.state)}) and cannot be modified.`,
        );
      }
      if (incoming.contextId && task.contextId && incoming.contextId !== task.contextId) {
        throw new RequestMalformedError(
          `contextId mismatch: message contextId '${incoming.contextId}' does not match task '${task.id}' contextId '${task.contextId}'`,
        );
      }
    }
    const referenceTasks = await this.referenceTasks(incoming, context);
    // Time-ordered ids keep the store's indexes appending (see timeOrderedId).
    const taskId = incoming.taskId || timeOrderedId();
    const contextId = incoming.contextId || task?.contextId || timeOrderedId();
    if (context.requestedExtensions) {
      const exposed = new Set(offered.map((e) => e.uri));
      context.setRequestedExtensions(context.requestedExtensions.filter((e) => exposed.has(e)));
    }
    bus ??= this.buses.createOrGetByTaskId(taskId, context);
    live ??=
      this.lives.get(bus) ?? new LiveTask(this.store, context, task, this.saving).attach(bus);
    this.lives.set(bus, live);
    live.beginTurn(incoming);
    live.appendHistory(incoming);
    // The executor gets its own copy of a follow-up's task (it may change it).
    const given = task ? structuredClone(live.current()) : undefined;
    const message = { ...incoming, contextId, taskId };
    // The SDK's constructor deep-copies the request (~3% of a SendMessage); this one was just
    // parsed from the wire for this turn, so the context takes it as it is.
    const request: RequestContext = Object.assign(
      Object.create(RequestContext.prototype) as RequestContext,
      {
        request: { ...params, message },
        taskId,
        contextId,
        context,
        task: given,
        referenceTasks,
      },
    );
    return { request, bus, live };
  }

  private async referenceTasks(
    message: Message,
    context: ServerCallContext,
  ): Promise<Task[] | undefined> {
    if (!message.referenceTaskIds?.length) return undefined;
    const found: Task[] = [];
    for (const id of message.referenceTaskIds) {
      const task = await this.store.load(id, context);
      if (task) found.push(task);
      else this.logger.warn(`Reference task ${id} not found.`);
    }
    return found;
  }
}
