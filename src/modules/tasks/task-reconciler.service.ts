import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { DataSource } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../common/runtime/clock';
import {
  TaskScope,
  UPSERT_TASK_SQL,
  fromTaskRow,
  taskRowValues,
  toTaskEntity,
} from './task.entity';
import type { TaskPayloadRow } from './task.entity';
import { TASKS_CONNECTION, TASKS_MODULE_OPTIONS } from './tasks.constants';
import { ownerIsGone, thisHostOwners } from '../../common/runtime/process-instance';
import { sqlFor } from '../../common/database/sql-dialect';

/** Default time a task's owner may go without a heartbeat before its work counts as orphaned, ms. */
export const DEFAULT_LEASE_MS = 30_000;

/** What the reconciler reads from the task module options. */
export interface TaskReconcilerOptions {
  /** Lease, ms: tasks whose lease was last renewed longer ago are orphaned. */
  leaseMs?: number;
}

/** Task metadata key naming the harness run that serves a task (set by the harness skill). */
export const RUN_ID_METADATA_KEY = 'superqodeRunId';

/** One task that was left SUBMITTED or WORKING by a process that stopped. */
export interface InterruptedTask {
  scope: TaskScope;
  taskId: string;
  contextId: string;
  state: string;
  /** Process instance that owned it (null: recorded before leases existed). */
  leaseOwner: string | null;
  /** The harness run id recorded on the task, when any. */
  runId: string | undefined;
}

/** Called with each reconciled batch. */
export type InterruptedTasksHandler = (tasks: InterruptedTask[]) => Promise<void>;

const UNFINISHED = ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'];

/** SUBMITTED or WORKING, and leased before the cutoff, never leased, or owned by a given id. */
const ORPHANED_WHERE =
  `"status_state" IN (?, ?) AND ("lease_renewed_at_ms" IS NULL OR "lease_renewed_at_ms" < ? ` +
  `OR "lease_owner" LIKE ? ESCAPE '\\')`;

/**
 * Crash reconciliation for the durable task store: finds SUBMITTED or WORKING tasks whose owner
 * (the process instance that saved them) has not renewed its lease for `leaseMs`, and marks
 * them FAILED with a status message naming the owner and the interrupted run. A live server's
 * tasks (lease renewed by its heartbeat) are never touched, so several servers can share a
 * store. Scans all tenants and owners (an operator action, not a caller's view).
 */
@Injectable()
export class TaskReconciler {
  private readonly logger = new Logger(TaskReconciler.name);
  private readonly handlers: InterruptedTasksHandler[] = [];
  /** Owners known to be gone although their leases have not expired (a graceful shutdown). */
  private readonly released = new Set<string>();

  /** Lease, ms (from the module options; default {@link DEFAULT_LEASE_MS}). */
  readonly leaseMs: number;

  constructor(
    @InjectDataSource(TASKS_CONNECTION) private readonly db: DataSource,
    private readonly clock: Clock,
    @Optional() @Inject(TASKS_MODULE_OPTIONS) options: TaskReconcilerOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /**
   * Registers a handler told about every reconciled batch (e.g. the harness marks the matching
   * ledger runs failed). Register in `onModuleInit`; the server's store lifecycle reconciles
   * after listen succeeds and then every lease period.
   */
  onInterrupted(handler: InterruptedTasksHandler): void {
    this.handlers.push(handler);
  }

  /**
   * Fails the unfinished tasks of an owner that is stopping (this process at shutdown) without
   * waiting for its lease.
   * @returns What was changed.
   */
  async release(owner: string): Promise<InterruptedTask[]> {
    this.released.add(owner);
    return this.reconcile();
  }

  /** The owner is this process, stopping ({@link release}). */
  isReleased(owner: string | null): boolean {
    return owner !== null && this.released.has(owner);
  }

  /** The owner stopped: released here, or a gone process of this host ({@link ownerIsGone}). */
  isGone(owner: string | null): boolean {
    return owner !== null && (this.released.has(owner) || ownerIsGone(owner));
  }

  /** Epoch ms before which a lease counts as expired, now. */
  cutoffMs(): number {
    return this.clock.now().getTime() - this.leaseMs;
  }

  /**
   * Orphaned tasks, oldest first: lease expired at `cutoffMs` (default now − lease), never
   * leased, or owned by a process of this host that no longer exists ({@link ownerIsGone}).
   */
  async findInterrupted(cutoffMs = this.cutoffMs()): Promise<InterruptedTask[]> {
    const rows = (await this.db.query(
      sqlFor(
        this.db,
        `SELECT "tenant", "owner", "id", "context_id" AS "contextId", "status_state" AS "state",
       "metadata", "lease_owner" AS "leaseOwner", "lease_renewed_at_ms" AS "renewedMs"
       FROM "a2a_tasks" WHERE ${ORPHANED_WHERE}
       ORDER BY "status_timestamp_ms", "id"`,
      ),
      [...UNFINISHED, cutoffMs, this.released.size > 0 ? '%' : thisHostOwners()],
    )) as {
      tenant: string;
      owner: string;
      id: string;
      contextId: string;
      state: string;
      metadata: string | null;
      leaseOwner: string | null;
      renewedMs: number | null;
    }[];
    const orphaned = rows.filter(
      (r) => r.renewedMs === null || r.renewedMs < cutoffMs || this.isGone(r.leaseOwner),
    );
    return orphaned.map((r) => ({
      scope: { tenant: r.tenant, owner: r.owner },
      taskId: r.id,
      contextId: r.contextId,
      state: r.state,
      leaseOwner: r.leaseOwner,
      runId: runIdOf(r.metadata),
    }));
  }

  /**
   * Marks each orphaned task FAILED (one upsert each, in one transaction). Each row is read
   * again inside the transaction with the same lease condition, so a task whose live owner
   * renewed its lease in between is left alone.
   * @returns What was changed (empty when nothing was orphaned).
   */
  async reconcile(
    interrupted?: InterruptedTask[],
    cutoffMs = this.cutoffMs(),
  ): Promise<InterruptedTask[]> {
    const found = interrupted ?? (await this.findInterrupted(cutoffMs));
    if (found.length === 0) return [];
    const changed: InterruptedTask[] = [];
    await this.db.transaction(async (tx) => {
      for (const t of found) {
        const row = (await tx.query(
          sqlFor(
            tx,
            `SELECT "id", "context_id" AS "contextId", "status", "artifacts", "history", "metadata"
           FROM "a2a_tasks" WHERE "tenant" = ? AND "owner" = ? AND "id" = ? AND ${ORPHANED_WHERE}`,
          ),
          [
            t.scope.tenant,
            t.scope.owner,
            t.taskId,
            ...UNFINISHED,
            cutoffMs,
            this.goneOwnerPattern(t.leaseOwner),
          ],
        )) as TaskPayloadRow[];
        if (!row[0]) continue;
        const failed = this.failed(fromTaskRow(row[0]), t);
        await tx.query(
          sqlFor(tx, UPSERT_TASK_SQL),
          taskRowValues(toTaskEntity(t.scope, failed, this.clock.now().getTime())),
        );
        changed.push(t);
      }
    });
    if (changed.length === 0) return [];
    const owners = [...new Set(changed.map((t) => t.leaseOwner ?? 'unknown'))].join(', ');
    this.logger.warn(`Reconciled ${changed.length} orphaned task(s) of ${owners}: marked failed`);
    for (const handler of this.handlers) await handler(changed);
    return changed;
  }

  /** A `LIKE` pattern matching exactly a gone owner's id, or nothing. */
  private goneOwnerPattern(owner: string | null): string | null {
    return owner && this.isGone(owner) ? owner.replace(/[\\%_]/g, (c) => `\\${c}`) : null;
  }

  private failed(task: Task, t: InterruptedTask): Task {
    const run = t.runId ? ` (run ${t.runId})` : '';
    const owner = t.leaseOwner ? `owner ${t.leaseOwner}` : 'no owner recorded';
    const text = `Interrupted: the server stopped while this task was running${run} (${owner}; lease ${this.leaseMs} ms); it was marked failed.`;
    return withFailedStatus(task, text, this.clock.isoNow());
  }
}

/**
 * The task with a FAILED status carrying an agent message (text part) that says why.
 * @param timestamp - ISO 8601 status timestamp.
 */
export function withFailedStatus(task: Task, text: string, timestamp: string): Task {
  const message = {
    messageId: randomUUID(),
    contextId: task.contextId,
    taskId: task.id,
    role: Role.ROLE_AGENT,
    parts: [
      {
        content: { $case: 'text' as const, value: text },
        metadata: undefined,
        filename: '',
        mediaType: 'text/plain',
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { ...task, status: { state: TaskState.TASK_STATE_FAILED, message, timestamp } };
}

function runIdOf(metadata: string | null): string | undefined {
  if (!metadata) return undefined;
  try {
    const value = (JSON.parse(metadata) as Record<string, unknown>)[RUN_ID_METADATA_KEY];
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
