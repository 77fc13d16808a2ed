import { taskStateToJSON } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { ServerCallContext, resolveUserScope } from '@a2a-js/sdk/server';
import type { AgentExecutor } from '@a2a-js/sdk/server';
import type { ConfigType } from '@nestjs/config';
import type { BatchNotifications } from '../postgres-batch-upsert';
import { storesConfig } from '../../../config/namespaces';
import { TasksService } from '../tasks.service';
import { TaskWriteFailures } from '../task-write-failures';
import { TaskEventChannel, taskKeyString } from './task-event-channel';
import type { ClusterSignal, TaskKey } from './task-event-channel';
import { eventsBetween, isFinal } from './task-follower';
import { TaskLeases } from './task-leases';

/** States in which some instance runs the task (and renews its lease). */
const RUNNING: readonly TaskState[] = [
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
];

/** Cancels a task live on this instance as a local CancelTask does. */
export type LocalCancel = (taskId: string, context: ServerCallContext) => Promise<unknown>;

/**
 * Tasks across instances (issue #15): which executions run here, signals after every store
 * write, SubscribeToTask for a task running elsewhere (catch up from the store, then follow the
 * `changed` signals) and CancelTask for one running elsewhere (a `cancel` signal the running
 * instance acknowledges and serves). Over a {@link TaskEventChannel}; works the same in-process.
 */
@Injectable()
export class ClusterTasks implements OnModuleInit {
  private readonly logger = new Logger(ClusterTasks.name);
  /** Executions running here, by task key, counted (a follow-up may overlap its first turn). */
  private readonly running = new Map<string, number>();
  private localCancel?: LocalCancel;

  constructor(
    private readonly channel: TaskEventChannel,
    @Inject(storesConfig.KEY) private readonly config: ConfigType<typeof storesConfig>,
    private readonly tasks: TasksService,
    private readonly leases: TaskLeases,
    private readonly failures: TaskWriteFailures,
  ) {}

  onModuleInit(): void {
    this.channel.listen((signal) => this.onSignal(signal));
    // Tasks a reconciler (dead owner, shutdown) or the heartbeat (failed save) ends FAILED were
    // written by SQL: announce them too.
    this.tasks.onOrphansFailed((tasks) =>
      this.channel
        .publishChanged(tasks.map((t) => ({ ...t.scope, taskId: t.taskId })))
        .catch((e: Error) => this.logger.warn(`Failed tasks not announced: ${e.message}`)),
    );
    this.failures.onEnded((scope, taskId) => this.changed({ ...scope, taskId }));
  }

  /** The key the stores use for a task of this caller (`tenant ?? ''`, `resolveUserScope`). */
  keyOf(taskId: string, context: ServerCallContext): TaskKey {
    return { tenant: context.tenant ?? '', owner: resolveUserScope(context), taskId };
  }

  /** Registers how this instance cancels its own executions (the request handler's CancelTask). */
  serve(cancel: LocalCancel): void {
    this.localCancel = cancel;
  }

  /** The executor, with every `execute` recorded as running here until it settles. */
  track(executor: AgentExecutor): AgentExecutor {
    return {
      execute: async (requestContext, bus) => {
        const key = taskKeyString(this.keyOf(requestContext.taskId, requestContext.context!));
        this.running.set(key, (this.running.get(key) ?? 0) + 1);
        try {
          await executor.execute(requestContext, bus);
        } finally {
          const left = (this.running.get(key) ?? 1) - 1;
          if (left > 0) this.running.set(key, left);
          else this.running.delete(key);
        }
      },
      cancelTask: (taskId, bus) => executor.cancelTask(taskId, bus),
    };
  }

  /** An execution of this task runs on this instance. */
  isLive(taskId: string, context: ServerCallContext): boolean {
    return this.running.has(taskKeyString(this.keyOf(taskId, context)));
  }

  /**
   * Refuses a message that names a task an execution is running (SUBMITTED or WORKING): here, or
   * on another instance under a live lease ({@link TaskLeases.heldElsewhere}). One answer for
   * both, so where a load balancer sends the message changes nothing, and a task never runs twice.
   * A task whose runner is gone (lease expired) is not refused: nothing runs it any more.
   * @param task - The stored task the message names (`message.taskId`), as this caller sees it.
   * @throws {UnsupportedOperationError} The task is running (-32004 / HTTP 400).
   * @see A2A specification §3.1.1 SendMessage (a task accepts messages while it waits for input).
   */
  async assertAcceptsMessage(task: Task, context: ServerCallContext): Promise<void> {
    const state = task.status?.state;
    if (state === undefined || !RUNNING.includes(state)) return;
    const running =
      this.isLive(task.id, context) ||
      (await this.leases.heldElsewhere(this.keyOf(task.id, context))) !== undefined;
    if (!running) return;
    throw new UnsupportedOperationError(
      `Task ${task.id} is still running (${taskStateToJSON(state)}) and takes no message until it ` +
        'finishes or asks for input: follow it (GetTask or SubscribeToTask) or cancel it (CancelTask).',
    );
  }

  /**
   * The `changed` announcements a group commit sends in its own transaction (PostgreSQL), or
   * undefined: then every save is announced with {@link changed} after it resolved.
   */
  batchNotifications(): BatchNotifications | undefined {
    return this.channel.batchNotifications();
  }

  /** Announces a stored change of a task to every instance (failures logged, not thrown). */
  async changed(key: TaskKey): Promise<void> {
    await this.channel
      .publish({ kind: 'changed', key })
      .catch((e: Error) =>
        this.logger.warn(`Task "${key.taskId}" change not announced: ${e.message}`),
      );
  }

  /**
   * SubscribeToTask for a task not running here: the stored task, then the events that take it to
   * each later stored state, until it is final or the caller goes away.
   * @throws {TaskNotFoundError} No such task for this caller.
   * @throws {UnsupportedOperationError} The task is already in a final state (as the SDK does).
   */
  async *follow(
    taskId: string,
    context: ServerCallContext,
    load: () => Promise<Task | undefined>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const watch = this.watch(this.keyOf(taskId, context));
    try {
      await this.channel.ready();
      let last = await load();
      if (!last) throw new TaskNotFoundError(`Task not found: ${taskId}`);
      if (isFinal(last)) {
        throw new UnsupportedOperationError(
          `Task ${taskId} is in a terminal state (${taskStateToJSON(last.status!.state)}) and cannot be subscribed to.`,
        );
      }
      yield { payload: { $case: 'task', value: last } };
      while (!isFinal(last)) {
        await watch.next();
        const now = await load();
        if (!now) return;
        for (const event of eventsBetween(last, now)) yield event;
        last = now;
      }
    } finally {
      watch.stop();
    }
  }

  /**
   * CancelTask for a task some other instance runs: sends `cancel` (again each lease until the
   * runner acknowledges it), then waits, four leases at most, until the stored task is final; a
   * dead runner's task is ended FAILED by the reconciler within that time.
   * @returns The latest stored task, or undefined when no instance runs it (not SUBMITTED or
   *   WORKING): the caller then cancels it in the store as the SDK does.
   */
  async cancelElsewhere(
    taskId: string,
    context: ServerCallContext,
    load: () => Promise<Task | undefined>,
  ): Promise<Task | undefined> {
    const key = this.keyOf(taskId, context);
    const watch = this.watch(key);
    try {
      await this.channel.ready();
      let task = await load();
      if (!task?.status || !RUNNING.includes(task.status.state)) return undefined;
      const request = randomUUID();
      const leaseMs = this.config.leaseMs;
      const until = Date.now() + 4 * leaseMs;
      let acked = false;
      const stopAck = this.channel.listen((s) => {
        if (s.kind === 'ack' && s.request === request) acked = true;
      });
      try {
        // Unacknowledged (the run had not started, or a signal was lost): asked again each lease.
        let askAt = 0;
        while (task && !isFinal(task) && Date.now() < until) {
          if (!acked && Date.now() >= askAt) {
            await this.channel.publish({ kind: 'cancel', key, request });
            askAt = Date.now() + leaseMs;
          }
          await watch.next(Math.max(1, Math.min(until, acked ? until : askAt) - Date.now()));
          task = await load();
        }
        return task;
      } finally {
        stopAck();
      }
    } finally {
      watch.stop();
    }
  }

  /** Wakes `next()` on each change of the task (or resync); `next()` after a change returns at once. */
  private watch(key: TaskKey): { next(timeoutMs?: number): Promise<void>; stop(): void } {
    let dirty = false;
    let wake: (() => void) | undefined;
    const changed = () => {
      dirty = true;
      wake?.();
    };
    const stopChanged = this.channel.watch(key, changed);
    const stopResync = this.channel.listen((s) => s.kind === 'resync' && changed());
    return {
      stop: () => {
        stopChanged();
        stopResync();
      },
      next: (timeoutMs) =>
        new Promise<void>((resolve) => {
          const done = () => {
            dirty = false;
            wake = undefined;
            clearTimeout(timer);
            resolve();
          };
          const timer = timeoutMs === undefined ? undefined : setTimeout(done, timeoutMs);
          if (dirty) done();
          else wake = done;
        }),
    };
  }

  private onSignal(signal: ClusterSignal): void {
    if (signal.kind !== 'cancel' || !this.running.has(taskKeyString(signal.key))) return;
    const { key, request } = signal;
    const context = new ServerCallContext({
      user: { isAuthenticated: true, userName: key.owner },
      tenant: key.tenant || undefined,
    });
    void this.channel
      .publish({ kind: 'ack', request })
      .then(() => this.localCancel?.(key.taskId, context))
      .catch((e: Error) => this.logger.warn(`Cancel of task "${key.taskId}" failed: ${e.message}`));
  }
}
