import { Task, taskStateToJSON } from '@a2a-js/sdk';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TASKS_TABLE } from './tasks.constants';

/** Payload format of the JSON columns (proto-JSON of A2A 1.0, as the SDK's DatabaseTaskStore). */
export const TASK_PAYLOAD_FORMAT = '1.0';

/** Who a row belongs to: `tenant = ctx.tenant ?? ''`, `owner = ownerResolver(ctx)`. */
export interface TaskScope {
  tenant: string;
  owner: string;
}

/**
 * One stored A2A task, scoped to a tenant and an owner (table `a2a_tasks`).
 * Key and filter fields are real columns; the rest is proto-JSON text from `Task.toJSON`.
 * Created by migrations `CreateA2aTasks1733000000000`, `AddTaskLeases1765000000000` and
 * `AddTaskRetentionIndex1765000000002` (PostgreSQL: `CreateA2aTasksPostgres1765000000001`), never
 * by `synchronize`.
 * @see SDK `@a2a-js/sdk/server/database` `tasks` table, which this layout mirrors.
 */
@Entity(TASKS_TABLE)
@Index('IDX_a2a_tasks_scope_ts', ['tenant', 'owner', 'statusTimestampMs', 'id'])
@Index('IDX_a2a_tasks_context_ts', ['tenant', 'owner', 'contextId', 'statusTimestampMs', 'id'])
@Index('IDX_a2a_tasks_state_ts', ['tenant', 'owner', 'statusState', 'statusTimestampMs', 'id'])
@Index('IDX_a2a_tasks_lease', ['leaseOwner'], { where: '"lease_owner" IS NOT NULL' })
@Index('IDX_a2a_tasks_updated', ['updatedAtMs', 'id'])
export class TaskEntity {
  /** `ServerCallContext.tenant`, `''` when none. */
  @PrimaryColumn({ type: 'text' })
  tenant: string;

  /** Owner from the store's `OwnerResolver` (default `user.userName || 'unknown'`). */
  @PrimaryColumn({ type: 'text' })
  owner: string;

  /** Task id. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  /** Context id chosen by the client or the server; no length cap. */
  @Column({ name: 'context_id', type: 'text' })
  contextId: string;

  /** Proto enum name (`TASK_STATE_COMPLETED`); null when the task has no status. */
  @Column({ name: 'status_state', type: 'text', nullable: true })
  statusState: string | null;

  /** `status.timestamp` in epoch ms; 0 when absent or unparsable. */
  @Column({ name: 'status_timestamp_ms', type: 'integer' })
  statusTimestampMs: number;

  /** Proto-JSON `TaskStatus`, or null. */
  @Column({ type: 'text', nullable: true })
  status: string | null;

  /** Proto-JSON `Artifact[]`, or null when empty. */
  @Column({ type: 'text', nullable: true })
  artifacts: string | null;

  /** Proto-JSON `Message[]`, or null when empty. */
  @Column({ type: 'text', nullable: true })
  history: string | null;

  /** Task metadata as JSON, or null. */
  @Column({ type: 'text', nullable: true })
  metadata: string | null;

  /** Payload format of the JSON columns ({@link TASK_PAYLOAD_FORMAT}). */
  @Column({ name: 'protocol_version', type: 'text' })
  protocolVersion: string;

  /** First save of this row, epoch ms (bookkeeping only, never returned to clients). */
  @Column({ name: 'created_at_ms', type: 'integer' })
  createdAtMs: number;

  /** Latest save of this row, epoch ms (bookkeeping only, never returned to clients). */
  @Column({ name: 'updated_at_ms', type: 'integer' })
  updatedAtMs: number;

  /**
   * Process instance running the task (`ProcessInstance.id`) while it is SUBMITTED or WORKING;
   * null otherwise (terminal, INPUT_REQUIRED, AUTH_REQUIRED: nobody is running it).
   */
  @Column({ name: 'lease_owner', type: 'text', nullable: true })
  leaseOwner: string | null;

  /** Owner's last save or heartbeat, epoch ms; null when unleased. */
  @Column({ name: 'lease_renewed_at_ms', type: 'integer', nullable: true })
  leaseRenewedAtMs: number | null;
}

/**
 * One string per stored task (`["tenant","owner","taskId"]` as JSON): the key of in-process maps
 * of tasks and of the cluster's `changed` signals.
 */
export function scopedTaskKey(scope: TaskScope, taskId: string): string {
  return JSON.stringify([scope.tenant, scope.owner, taskId]);
}

/** States a running process owns (leased); every other state is terminal or waits for a caller. */
export const LEASED_STATES = ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'];

/** States no process changes any more (what retention may delete). */
export const TERMINAL_STATES = [
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

/**
 * The store's only write: one upsert on the primary key (no read first) that replaces every
 * column but `created_at_ms`. Positional values come from {@link taskRowValues}.
 */
export const UPSERT_TASK_SQL =
  'INSERT INTO "a2a_tasks" ("tenant", "owner", "id", "context_id", "status_state", ' +
  '"status_timestamp_ms", "status", "artifacts", "history", "metadata", "protocol_version", ' +
  '"created_at_ms", "updated_at_ms", "lease_owner", "lease_renewed_at_ms") ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
  'ON CONFLICT ("tenant", "owner", "id") DO UPDATE SET "context_id" = excluded."context_id", ' +
  '"status_state" = excluded."status_state", ' +
  '"status_timestamp_ms" = excluded."status_timestamp_ms", "status" = excluded."status", ' +
  '"artifacts" = excluded."artifacts", "history" = excluded."history", ' +
  '"metadata" = excluded."metadata", "protocol_version" = excluded."protocol_version", ' +
  '"updated_at_ms" = excluded."updated_at_ms", "lease_owner" = excluded."lease_owner", ' +
  '"lease_renewed_at_ms" = excluded."lease_renewed_at_ms"';

/** Values of {@link UPSERT_TASK_SQL}, in its column order. */
export function taskRowValues(row: TaskEntity): unknown[] {
  // prettier-ignore
  return [
    row.tenant, row.owner, row.id, row.contextId, row.statusState, row.statusTimestampMs,
    row.status, row.artifacts, row.history, row.metadata, row.protocolVersion,
    row.createdAtMs, row.updatedAtMs, row.leaseOwner, row.leaseRenewedAtMs,
  ];
}

/** Columns that {@link fromTaskRow} reads (`artifacts`/`history` may be skipped by a list). */
export type TaskPayloadRow = Pick<TaskEntity, 'id' | 'contextId'> &
  Partial<Pick<TaskEntity, 'status' | 'artifacts' | 'history' | 'metadata'>>;

/**
 * Epoch ms of an ISO 8601 status timestamp, as the SDK's DatabaseTaskStore computes it.
 * @returns 0 when the timestamp is absent or not parsable by `Date.parse`.
 */
export function statusTimestampMs(timestamp: string | undefined): number {
  if (!timestamp) return 0;
  const parsed = Date.parse(timestamp);
  return Number.isNaN(parsed) ? 0 : parsed;
}

function encode(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/**
 * The row each task object was last encoded into, by task object (issue #14): a reply naming a
 * task the store has just encoded reuses the row's JSON text instead of converting the task again.
 * Sound because a saved state is never mutated afterwards (`LiveTask` is copy-on-write, and every
 * other saver builds a fresh object). {@link taskJsonText} takes the entry out: one left in the map
 * until its task object dies kept the row's strings alive through young-generation collections,
 * and they were promoted to the old space (shortlist/SQLite: 12.4 KB promoted per SendMessage with
 * the entry left in, 6.6 KB with it taken; issue #14).
 */
const encodedRows = new WeakMap<Task, TaskEntity>();

/**
 * The task's proto-JSON text, exactly `JSON.stringify(Task.toJSON(task))`: joined from the JSON
 * columns of its last {@link toTaskEntity} when the store encoded this very object (the row keeps
 * `Task.toJSON`'s members, in its order, each the `JSON.stringify` of the same value), else
 * converted now. The row is used once: a second call for the same object converts it again. A task
 * must not be mutated after it is saved (see {@link encodedRows}).
 * @returns JSON text of an A2A 1.0 Task object (`id`, `contextId`, `status`, `artifacts`,
 *   `history`, `metadata`, each only when `Task.toJSON` writes it).
 */
export function taskJsonText(task: Task): string {
  const row = encodedRows.get(task);
  if (!row) return JSON.stringify(Task.toJSON(task));
  encodedRows.delete(task);
  const members: string[] = [];
  if (row.id !== '') members.push(`"id":${JSON.stringify(row.id)}`);
  if (row.contextId !== '') members.push(`"contextId":${JSON.stringify(row.contextId)}`);
  if (row.status !== null) members.push(`"status":${row.status}`);
  if (row.artifacts !== null) members.push(`"artifacts":${row.artifacts}`);
  if (row.history !== null) members.push(`"history":${row.history}`);
  if (row.metadata !== null) members.push(`"metadata":${row.metadata}`);
  return `{${members.join(',')}}`;
}

function decode(value: string | null | undefined): unknown {
  return value ? JSON.parse(value) : undefined;
}

/**
 * Maps an SDK task to its row through `Task.toJSON` (enums as names, raw bytes as base64).
 * @param nowMs - Save time, epoch ms, for both bookkeeping columns (upserts keep `createdAtMs`).
 * @param leaseOwner - Process saving the task: recorded as its owner (lease renewed now) when the
 *   task is in a {@link LEASED_STATES} state; null leaves the row unowned.
 * @throws {Error} The task has no string id.
 */
export function toTaskEntity(
  scope: TaskScope,
  task: Task,
  nowMs: number,
  leaseOwner: string | null = null,
): TaskEntity {
  if (typeof task.id !== 'string') throw new Error('task has no id');
  const payload = Task.toJSON(task) as Record<string, unknown>;
  const statusState = task.status ? taskStateToJSON(task.status.state) : null;
  const leased = leaseOwner !== null && statusState !== null && LEASED_STATES.includes(statusState);
  const entity: TaskEntity = {
    tenant: scope.tenant,
    owner: scope.owner,
    id: task.id,
    contextId: task.contextId || '',
    statusState,
    statusTimestampMs: statusTimestampMs(task.status?.timestamp),
    status: encode(payload.status),
    artifacts: encode(payload.artifacts),
    history: encode(payload.history),
    metadata: encode(payload.metadata),
    protocolVersion: TASK_PAYLOAD_FORMAT,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    leaseOwner: leased ? leaseOwner : null,
    leaseRenewedAtMs: leased ? nowMs : null,
  };
  encodedRows.set(task, entity);
  return entity;
}

/**
 * Rebuilds a fresh SDK task from a row through `Task.fromJSON`; skipped columns become `[]`.
 * @throws {Error} `task "<id>" is not readable` when a JSON column is corrupt (cause attached).
 */
export function fromTaskRow(row: TaskPayloadRow): Task {
  try {
    return Task.fromJSON({
      id: row.id,
      contextId: row.contextId,
      status: decode(row.status),
      artifacts: decode(row.artifacts),
      history: decode(row.history),
      metadata: decode(row.metadata),
    });
  } catch (cause) {
    throw new Error(`task "${row.id}" is not readable`, { cause });
  }
}
