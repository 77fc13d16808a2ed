import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Role, TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import type { DataSource } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../common/runtime/clock';
import { TaskScope, UPSERT_TASK_SQL, fromTaskRow, taskRowValues, toTaskEntity } from './task.entity';
import type { TaskPayloadRow } from './task.entity';
import { TASKS_CONNECTION } from './tasks.constants';

/** Task metadata key naming the harness run that serves a task (set by the harness skill). */
export const RUN_ID_METADATA_KEY = 'superqodeRunId';

/** One task that was left SUBMITTED or WORKING by a process that stopped. */
export interface InterruptedTask {
  scope: TaskScope;
  taskId: string;
  contextId: string;
  state: string;
  /** The harness run id recorded on the task, when any. */
  runId: string | undefined;
}

/** Called with each reconciled batch. */
export type InterruptedTasksHandler = (tasks: InterruptedTask[]) => Promise<void>;

const UNFINISHED = ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'];

/**
 * Crash reconciliation for the durable task store: finds tasks a previous process left in
 * SUBMITTED or WORKING (no live run can exist for them in a new process) and marks them FAILED
 * with a status message naming the interrupted run, so nothing stays stuck in WORKING.
 * Scans all tenants and owners (an operator action, not a caller's view).
 */
@Injectable()
export class TaskReconciler {
  private readonly logger = new Logger(TaskReconciler.name);
  private readonly handlers: InterruptedTasksHandler[] = [];

  constructor(
    @InjectDataSource(TASKS_CONNECTION) private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Registers a handler told about every reconciled batch (e.g. the harness marks the matching
   * ledger runs failed). Register in `onModuleInit`; the server's start-up pass
   * ({@link ReconcileAtStartup}) runs at bootstrap.
   */
  onInterrupted(handler: InterruptedTasksHandler): void {
    this.handlers.push(handler);
  }

  /** Tasks left unfinished, oldest first (indexed on status_state). */
  async findInterrupted(): Promise<InterruptedTask[]> {
    const rows = (await this.db.query(
      `SELECT "tenant", "owner", "id", "context_id" AS "contextId", "status_state" AS "state", "metadata"
       FROM "a2a_tasks" WHERE "status_state" IN (?, ?) ORDER BY "status_timestamp_ms", "id"`,
      UNFINISHED,
    )) as { tenant: string; owner: string; id: string; contextId: string; state: string; metadata: string | null }[];
    return rows.map((r) => ({
      scope: { tenant: r.tenant, owner: r.owner },
      taskId: r.id,
      contextId: r.contextId,
      state: r.state,
      runId: runIdOf(r.metadata),
    }));
  }

  /**
   * Marks each interrupted task FAILED (one upsert each, in one transaction).
   * @returns What was changed (empty when nothing was interrupted).
   */
  async reconcile(interrupted?: InterruptedTask[]): Promise<InterruptedTask[]> {
    const found = interrupted ?? (await this.findInterrupted());
    if (found.length === 0) return [];
    await this.db.transaction(async (tx) => {
      for (const t of found) {
        const row = (await tx.query(
          `SELECT "id", "context_id" AS "contextId", "status", "artifacts", "history", "metadata"
           FROM "a2a_tasks" WHERE "tenant" = ? AND "owner" = ? AND "id" = ?`,
          [t.scope.tenant, t.scope.owner, t.taskId],
        )) as TaskPayloadRow[];
        if (!row[0]) continue;
        const failed = this.failed(fromTaskRow(row[0]), t.runId);
        await tx.query(UPSERT_TASK_SQL, taskRowValues(toTaskEntity(t.scope, failed, this.clock.now().getTime())));
      }
    });
    this.logger.warn(`Reconciled ${found.length} interrupted task(s): marked failed`);
    for (const handler of this.handlers) await handler(found);
    return found;
  }

  private failed(task: Task, runId: string | undefined): Task {
    const run = runId ? ` (run ${runId})` : '';
    const text = `Interrupted: the server stopped while this task was running${run}; it was marked failed at restart.`;
    const message = {
      messageId: randomUUID(),
      contextId: task.contextId,
      taskId: task.id,
      role: Role.ROLE_AGENT,
      parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    const status = { state: TaskState.TASK_STATE_FAILED, message, timestamp: this.clock.isoNow() };
    return { ...task, status };
  }
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

/**
 * The server's start-up pass: a new process has no live run, so every unfinished task was
 * interrupted. Registered by the server's transport module only (the CLI's `a2a reconcile`
 * builds the task module without it, so `--dry-run` changes nothing).
 */
@Injectable()
export class ReconcileAtStartup implements OnApplicationBootstrap {
  constructor(private readonly reconciler: TaskReconciler) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.reconciler.reconcile();
  }
}
