import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ProcessInstance } from '../../../common/runtime/process-instance';
import { querySql } from '../../../common/database/sql-dialect';
import { LEASED_STATES } from '../task.entity';
import { TASKS_CONNECTION } from '../tasks.constants';
import { TasksService } from '../tasks.service';
import type { TaskKey } from './task-event-channel';

interface LeaseRow {
  state: string;
  owner: string | null;
  /** Epoch ms; PostgreSQL returns bigint columns as strings. */
  renewedMs: number | string | null;
}

/**
 * Reads a task's ownership lease (`lease_owner`, `lease_renewed_at_ms`, written with every save of
 * a SUBMITTED/WORKING task and renewed by the owner's heartbeat) to tell a task running on
 * another instance from one whose runner is gone (issue #15).
 */
@Injectable()
export class TaskLeases {
  constructor(
    @InjectDataSource(TASKS_CONNECTION) private readonly db: DataSource,
    private readonly instance: ProcessInstance,
    private readonly tasks: TasksService,
  ) {}

  /**
   * The instance that runs the task under a live lease, when it is not this one: the stored task
   * is SUBMITTED or WORKING, leased by another owner, renewed within the lease
   * (`SUPERQODE_A2A_LEASE_MS`) and that owner is not known to be gone (a stopped process of this
   * host, see `ownerIsGone`).
   * @returns The owner id (`<host>:<pid>:<hex>`), or undefined: no such task for this key, not
   *   running, run here, or abandoned (its lease expired; the reconciler ends it FAILED).
   */
  async heldElsewhere(key: TaskKey): Promise<string | undefined> {
    const rows = await querySql<LeaseRow[]>(
      this.db,
      `SELECT "status_state" AS "state", "lease_owner" AS "owner", "lease_renewed_at_ms" AS "renewedMs"
       FROM "a2a_tasks" WHERE "tenant" = ? AND "owner" = ? AND "id" = ?`,
      [key.tenant, key.owner, key.taskId],
    );
    const row = rows[0];
    if (!row?.owner || row.renewedMs === null || !LEASED_STATES.includes(row.state)) {
      return undefined;
    }
    if (row.owner === this.instance.id || this.tasks.isGone(row.owner)) return undefined;
    return Number(row.renewedMs) >= this.tasks.leaseCutoffMs() ? row.owner : undefined;
  }
}
