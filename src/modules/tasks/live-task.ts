import { Logger } from '@nestjs/common';
import { TaskState } from '@a2a-js/sdk';
import type {
  Artifact,
  Message,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import type {
  AgentExecutionEvent,
  ExecutionEventBus,
  ServerCallContext,
  TaskStore,
} from '@a2a-js/sdk/server';
import { joinedParts } from './joined-text-parts';
import type { PendingTaskWrites } from './pending-task-writes';

/** Terminal task states (the SDK's `TERMINAL_STATE_LIST`). */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/** States that pause an execution for the client (INPUT_REQUIRED, AUTH_REQUIRED). */
const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

/**
 * The state of one task for the life of an execution (one event bus), held in memory: the lean
 * request handler's replacement for the SDK `ResultManager`, which loads, clones and saves the
 * task on every event. Events are applied once per bus, in publish order (its listener is the
 * bus's first), with the same merge rules as `ResultManager` (history deduplicated by messageId,
 * artifacts by artifactId with `append`, metadata merged, status updates of a terminal task
 * ignored), but copy-on-write: a state is never mutated after it is made, so a state handed to a
 * reply or to the store stays valid while later events arrive. Events are taken by reference: an
 * executor must not mutate an object after publishing it (ours do not).
 *
 * Durability: {@link flush} hands the latest state to the store (one save per state not yet
 * saved, in order) and resolves once it is committed; callers flush before any reply.
 * @see SDK `ResultManager` (`@a2a-js/sdk/server`), the semantics kept here.
 */
export class LiveTask {
  private static readonly logger = new Logger(LiveTask.name);
  private task: Task | undefined;
  private version = 0;
  private savedVersion = 0;
  private saving: Promise<void> = Promise.resolve();
  private userMessage: Message | undefined;
  /** The state right after each applied event (by event object). */
  private readonly after = new WeakMap<AgentExecutionEvent, Task | undefined>();

  /**
   * @param initial - The stored task of a follow-up turn; undefined for a new task.
   * @param inFlight - Saves not yet settled are tracked here (a graceful stop waits for them).
   */
  constructor(
    private readonly store: TaskStore,
    private readonly context: ServerCallContext,
    initial?: Task,
    private readonly inFlight?: PendingTaskWrites,
  ) {
    this.task = initial;
  }

  /** Applies every event published on `bus` from now on (call before any consumer subscribes). */
  attach(bus: ExecutionEventBus): this {
    bus.on('event', (event) => this.apply(event));
    return this;
  }

  /** The latest state (undefined before the first Task event of a new task). */
  current(): Task | undefined {
    return this.task;
  }

  /** The state right after `event` was applied (the latest when the event is unknown). */
  stateAfter(event: AgentExecutionEvent): Task | undefined {
    return this.after.has(event) ? this.after.get(event) : this.task;
  }

  /** Starts a turn: `message` is put first in the history of a Task event that lacks it (as the SDK). */
  beginTurn(message: Message): void {
    this.userMessage = message;
  }

  /** Appends a follow-up user message to the history (SDK `_createRequestContext`). */
  appendHistory(message: Message): void {
    if (!this.task) return;
    this.set({ ...this.task, history: [...(this.task.history ?? []), message] });
  }

  /**
   * Makes the latest state durable: resolves once a save of it (or of a later state) committed.
   * Saves run one at a time, in state order.
   * @throws {Error} The store failed (this and later flushes of the same state reject).
   */
  flush(): Promise<void> {
    if (this.savedVersion === this.version || !this.task) return this.saving;
    const task = this.task;
    this.savedVersion = this.version;
    const saving = this.saving
      .catch(() => undefined)
      .then(() => this.store.save(task, this.context));
    this.saving = saving;
    void this.inFlight?.track(saving);
    return saving;
  }

  /** Applies one event (SDK `ResultManager.processEvent` semantics, in memory). */
  apply(event: AgentExecutionEvent): void {
    switch (event.kind) {
      case 'task':
        this.set(this.merged(event.data));
        break;
      case 'statusUpdate':
        this.applyStatus(event.data);
        break;
      case 'artifactUpdate':
        this.applyArtifact(event.data);
        break;
      case 'message':
        break;
    }
    this.after.set(event, this.task);
    // A final or interrupted state is written at once, without waiting for a consumer to pull
    // the event (a graceful stop may follow); consumers' flushes of it share this save.
    const state = this.task?.status?.state;
    if (state !== undefined && (TERMINAL_STATES.has(state) || INTERRUPTED_STATES.has(state))) {
      this.flush().catch(() => undefined);
    }
  }

  private set(task: Task): void {
    this.task = task;
    this.version += 1;
  }

  private merged(event: Task): Task {
    const prior = this.task?.id === event.id ? this.task : undefined;
    let task: Task = { ...event };
    if (prior) {
      if (!task.history?.length && prior.history) task.history = prior.history;
      task.artifacts = mergeArtifacts(prior.artifacts, event.artifacts);
      if (prior.metadata || event.metadata)
        task.metadata = { ...prior.metadata, ...event.metadata };
    }
    const latest = this.userMessage;
    if (latest && !task.history?.some((m) => m.messageId === latest.messageId)) {
      task = { ...task, history: [latest, ...(task.history ?? [])] };
    }
    return task;
  }

  private applyStatus(update: TaskStatusUpdateEvent): void {
    const task = this.task;
    if (!task || task.id !== update.taskId) {
      LiveTask.logger.warn(`Status update for unknown task ${update.taskId} ignored`);
      return;
    }
    const state = task.status?.state;
    if (state !== undefined && TERMINAL_STATES.has(state) && update.status?.state !== state) {
      LiveTask.logger.warn(
        `Status update ${update.status?.state} for terminal task ${task.id} ignored`,
      );
      return;
    }
    const next: Task = { ...task, status: update.status };
    if (update.metadata) next.metadata = { ...task.metadata, ...update.metadata };
    const message = update.status?.message;
    if (message && !task.history?.some((m) => m.messageId === message.messageId)) {
      next.history = [...(task.history ?? []), message];
    }
    this.set(next);
  }

  private applyArtifact(update: TaskArtifactUpdateEvent): void {
    const artifact = update.artifact;
    const task = this.task;
    if (!artifact) return;
    if (!task || task.id !== update.taskId) {
      LiveTask.logger.warn(`Artifact update for unknown task ${update.taskId} ignored`);
      return;
    }
    const artifacts = [...(task.artifacts ?? [])];
    const at = artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
    if (at < 0) artifacts.push(artifact);
    else artifacts[at] = update.append ? appended(artifacts[at], artifact) : artifact;
    const next: Task = { ...task, artifacts };
    if (update.metadata) next.metadata = { ...task.metadata, ...update.metadata };
    this.set(next);
  }
}

/** SDK `ResultManager.mergeArtifacts`: persisted ones overlaid by id, new ones appended. */
function mergeArtifacts(
  persisted: Artifact[] | undefined,
  incoming: Artifact[] | undefined,
): Artifact[] {
  if (!persisted?.length) return incoming ?? [];
  if (!incoming?.length) return persisted;
  const byId = new Map(incoming.map((a) => [a.artifactId, a]));
  const merged = persisted.map((a) => byId.get(a.artifactId) ?? a);
  const seen = new Set(persisted.map((a) => a.artifactId));
  for (const a of incoming) if (!seen.has(a.artifactId)) merged.push(a);
  return merged;
}

/** An artifact chunk appended to an existing artifact (a new object; neither input changes). */
function appended(existing: Artifact, chunk: Artifact): Artifact {
  return {
    ...existing,
    // A streamed answer is one chunk per model delta: its text is kept as one part (issue #16).
    parts: joinedParts([...(existing.parts ?? []), ...(chunk.parts ?? [])]),
    ...(chunk.description ? { description: chunk.description } : {}),
    ...(chunk.name ? { name: chunk.name } : {}),
    ...(chunk.metadata ? { metadata: { ...existing.metadata, ...chunk.metadata } } : {}),
  };
}
