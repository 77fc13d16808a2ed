import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../../../common/runtime/clock';
import { ProcessInstance } from '../../../common/runtime/process-instance';
import { HarnessLedgerService } from '../../harness/ledger/harness-ledger.service';
import {
  LEASED_STATES,
  TERMINAL_STATES,
  UPSERT_TASK_SQL,
  taskRowValues,
  toTaskEntity,
} from '../task.entity';
import { withFailedStatus } from '../task-reconciler.service';
import { TaskWriteFailures } from '../task-write-failures';
import type { FailedTaskWrite } from '../task-write-failures';
import { TASKS_CONNECTION } from '../tasks.constants';
import { sqlFor } from '../../../common/database/sql-dialect';

const RENEW_TASK_LEASES_SQL =
  'UPDATE "a2a_tasks" SET "lease_renewed_at_ms" = ? WHERE "lease_owner" = ? AND "status_state" IN (?, ?)';

const STATE_SQL =
  'SELECT "status_state" AS "state" FROM "a2a_tasks" WHERE "tenant" = ? AND "owner" = ? AND "id" = ?';

/**
 * One heartbeat of this process: renews the lease of every task it owns (one UPDATE over the
 * partial lease index) and of every ledger run it executes, then ends FAILED the tasks whose
 * save failed, now that the store may answer again. Not on any request path.
 */
@Injectable()
export class StoreHeartbeat {
  private readonly logger = new Logger(StoreHeartbeat.name);

  constructor(
    @InjectDataSource(TASKS_CONNECTION) private readonly db: DataSource,
    private readonly instance: ProcessInstance,
    private readonly clock: Clock,
    private readonly failures: TaskWriteFailures,
    private readonly ledger: HarnessLedgerService,
  ) {}

  /** Renews leases and retries failed writes. @throws {Error} A store did not answer. */
  async beat(): Promise<void> {
    const nowMs = this.clock.now().getTime();
    await this.db.query(sqlFor(this.db, RENEW_TASK_LEASES_SQL), [
      nowMs,
      this.instance.id,
      ...LEASED_STATES,
    ]);
    await this.ledger.renewRunLeases(nowMs);
    for (const failure of this.failures.pending()) await this.endFailedWrite(failure, nowMs);
  }

  /** Ends one task FAILED unless its row already reached a terminal state. */
  private async endFailedWrite(f: FailedTaskWrite, nowMs: number): Promise<void> {
    const rows: { state: string | null }[] = await this.db.query(sqlFor(this.db, STATE_SQL), [
      f.scope.tenant,
      f.scope.owner,
      f.task.id,
    ]);
    if (rows[0]?.state && TERMINAL_STATES.includes(rows[0].state)) {
      this.failures.clear(f.scope, f.task.id);
      return;
    }
    const text = `The task store could not record this task (${f.error}); it was marked failed once the store answered again.`;
    const failed = withFailedStatus(f.task, text, this.clock.isoNow());
    await this.db.query(
      sqlFor(this.db, UPSERT_TASK_SQL),
      taskRowValues(toTaskEntity(f.scope, failed, nowMs)),
    );
    this.logger.warn(`Task "${f.task.id}" whose save failed was marked failed`);
    await this.failures.ended(f.scope, f.task.id);
  }
}
