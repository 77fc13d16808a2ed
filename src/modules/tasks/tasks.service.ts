import { Inject, Injectable } from '@nestjs/common';
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { StoreProbe } from './store-probe.service';
import type { StoreProbeResult } from './store-probe.service';
import { TaskReconciler } from './task-reconciler.service';
import type { InterruptedTask, InterruptedTasksHandler } from './task-reconciler.service';
import { TASK_STORE } from './tasks.constants';

/** What {@link TasksService.failOrphaned} did (or, with `dryRun`, would do). */
export interface OrphanedTasksReport {
  /** The orphaned tasks failed (or found, with `dryRun`), oldest first. */
  readonly tasks: readonly InterruptedTask[];
  readonly dryRun: boolean;
}

/**
 * The tasks module's public face: reads of stored tasks (scoped to the caller, as the SDK's
 * `TaskStore` is), crash reconciliation of orphaned work (leases, issue #13) and the store's
 * health. Consumers outside `tasks/` (health, the store lifecycle, `a2a reconcile`, the harness
 * run reconciler) use this service, never the store, its data source or its SQL. The protocol
 * operations GetTask/ListTasks/CancelTask of the bindings stay with the SDK request handler
 * (`A2A_REQUEST_HANDLER`, over the same store), which owns their A2A semantics (history length,
 * not-found and not-cancelable errors, the executor's cancel).
 */
@Injectable()
export class TasksService {
  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore,
    private readonly reconciler: TaskReconciler,
    private readonly storeProbe: StoreProbe,
  ) {}

  /** The stored task visible to `context`'s caller, or undefined. */
  get(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.store.load(taskId, context);
  }

  /**
   * One page of the caller's tasks (filters and caps as ListTasks).
   * @throws {Error} When the store has no list (the SDK memory store).
   */
  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    if (!this.store.list) throw new Error('This task store cannot list tasks.');
    return this.store.list(params, context);
  }

  /** Ownership lease, ms: work not renewed for this long is orphaned. */
  get leaseMs(): number {
    return this.reconciler.leaseMs;
  }

  /**
   * Finds the SUBMITTED/WORKING tasks whose owner's lease expired (all tenants) and, unless
   * `dryRun`, marks them FAILED naming the owner. A live server's work is never touched.
   */
  async failOrphaned(opts: { dryRun?: boolean } = {}): Promise<OrphanedTasksReport> {
    const cutoffMs = this.reconciler.cutoffMs();
    const found = await this.reconciler.findInterrupted(cutoffMs);
    if (opts.dryRun) return { tasks: found, dryRun: true };
    return { tasks: await this.reconciler.reconcile(found, cutoffMs), dryRun: false };
  }

  /** Fails the unfinished tasks of `owner` (this process, stopping) without waiting for its lease. */
  release(owner: string): Promise<InterruptedTask[]> {
    return this.reconciler.release(owner);
  }

  /** Registers a handler told about every batch of tasks failed as orphaned (register in `onModuleInit`). */
  onOrphansFailed(handler: InterruptedTasksHandler): void {
    this.reconciler.onInterrupted(handler);
  }

  /** Epoch ms before which a lease counts as expired, now. */
  leaseCutoffMs(): number {
    return this.reconciler.cutoffMs();
  }

  /** The owner is this process, stopping ({@link release}). */
  isReleased(owner: string | null): boolean {
    return this.reconciler.isReleased(owner);
  }

  /** The owner stopped: released here, or a gone process of this host. */
  isGone(owner: string | null): boolean {
    return this.reconciler.isGone(owner);
  }

  /** Whether the store answers reads and accepts writes (one shared probe at a time). */
  health(): Promise<StoreProbeResult> {
    return this.storeProbe.probe();
  }
}
