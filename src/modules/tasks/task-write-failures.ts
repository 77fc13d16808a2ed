import { Injectable } from '@nestjs/common';
import type { Task } from '@a2a-js/sdk';
import { scopedTaskKey } from './task.entity';
import type { TaskScope } from './task.entity';

/** Most failed writes remembered; past it the oldest is forgotten (it stays leased, then expires). */
export const MAX_REMEMBERED_WRITE_FAILURES = 10_000;

/** A task whose latest save did not reach the store. */
export interface FailedTaskWrite {
  scope: TaskScope;
  task: Task;
  /** The store's error message (no task content). */
  error: string;
}

/** Called for each task the store lifecycle ended FAILED after its save failed; must not throw. */
export type EndedFailedWriteHandler = (scope: TaskScope, taskId: string) => Promise<void>;

/**
 * Tasks whose save failed (read-only or full store, busy past the timeout): the row may still
 * say SUBMITTED or WORKING although the request has ended with an error. The server's store
 * lifecycle ends each one FAILED once the store accepts writes again; a later successful save
 * of the same task clears it. In-process and bounded ({@link MAX_REMEMBERED_WRITE_FAILURES}).
 */
@Injectable()
export class TaskWriteFailures {
  private readonly failures = new Map<string, FailedTaskWrite>();
  private readonly endedHandlers: EndedFailedWriteHandler[] = [];
  private recorded = 0;

  /** Remembers a failed save (replacing an earlier one of the same task). */
  record(scope: TaskScope, task: Task, error: Error): void {
    this.recorded += 1;
    const key = scopedTaskKey(scope, task.id);
    this.failures.delete(key);
    this.failures.set(key, { scope, task, error: error.message });
    if (this.failures.size > MAX_REMEMBERED_WRITE_FAILURES) {
      this.failures.delete(this.failures.keys().next().value as string);
    }
  }

  /** Forgets a task (its save succeeded, or it was ended FAILED). */
  clear(scope: TaskScope, taskId: string): void {
    if (this.failures.size > 0) this.failures.delete(scopedTaskKey(scope, taskId));
  }

  /** Registers a handler told about each task {@link ended} (register in `onModuleInit`). */
  onEnded(handler: EndedFailedWriteHandler): void {
    this.endedHandlers.push(handler);
  }

  /**
   * Forgets a task whose row was just ended FAILED by SQL, and tells the handlers (the cluster
   * announces the stored change to other instances' followers).
   */
  async ended(scope: TaskScope, taskId: string): Promise<void> {
    this.clear(scope, taskId);
    for (const handler of this.endedHandlers) await handler(scope, taskId);
  }

  /** The remembered failures, oldest first (a copy). */
  pending(): FailedTaskWrite[] {
    return [...this.failures.values()];
  }

  /** Failed saves since the start (`superqode_a2a_store_write_errors_total`). */
  get totalRecorded(): number {
    return this.recorded;
  }

  /** How many failed writes wait to be ended. */
  get size(): number {
    return this.failures.size;
  }
}
