import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HarnessLedgerService } from '../../harness/ledger/harness-ledger.service';
import { TasksService } from '../tasks.service';

/**
 * Keeps the run ledger consistent with the task store: runs left `running` by an owner whose
 * lease expired are ended (`run.failed`, code `interrupted`), including the runs of tasks the
 * task reconciler marks failed. A live owner's runs (lease renewed) are never touched.
 */
@Injectable()
export class HarnessRunReconciler implements OnModuleInit {
  private readonly logger = new Logger(HarnessRunReconciler.name);

  constructor(
    private readonly ledger: HarnessLedgerService,
    private readonly tasks: TasksService,
  ) {}

  onModuleInit(): void {
    this.tasks.onOrphansFailed(async (interrupted) => {
      const cutoffMs = this.tasks.leaseCutoffMs();
      for (const t of interrupted) {
        // This process's own runs, at shutdown, are ended by the harness adapter (run.cancelled).
        if (t.runId && !this.tasks.isReleased(t.leaseOwner))
          await this.interrupt(
            t.runId,
            t.leaseOwner,
            this.tasks.isGone(t.leaseOwner) ? Number.MAX_SAFE_INTEGER : cutoffMs,
          );
      }
    });
  }

  /** Ends every orphaned run (lease renewed before now − lease, or never leased). */
  async reconcile(): Promise<void> {
    const cutoffMs = this.tasks.leaseCutoffMs();
    for (const run of await this.ledger.orphanedRuns(cutoffMs))
      await this.interrupt(run.id, run.owner, cutoffMs);
  }

  private async interrupt(runId: string, owner: string | null, cutoffMs: number): Promise<void> {
    const who = owner ? `server ${owner}` : 'the server';
    const message = `Interrupted: ${who} stopped during this run (no heartbeat for ${this.tasks.leaseMs} ms).`;
    const event = await this.ledger
      .markInterrupted(runId, message, cutoffMs)
      .catch((error: Error) => {
        this.logger.warn(`Run ${runId} not reconciled: ${error.message}`);
        return null;
      });
    if (event) this.logger.warn(`Marked orphaned run ${runId} of ${who} failed`);
  }
}
