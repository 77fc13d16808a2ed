import { Injectable, Module, OnApplicationBootstrap, OnModuleInit, Logger } from '@nestjs/common';
import { A2aConfig } from '../../../config/a2a.config';
import { RuntimeModule } from '../../../common/runtime/runtime.module';
import { ConfiguredTasksModule } from '../../tasks/configured-tasks.module';
import { TaskReconciler } from '../../tasks/task-reconciler.service';
import { HarnessModule } from '../harness.module';
import { HarnessLedgerService } from '../ledger/harness-ledger.service';
import { ContextSessions } from './context-sessions.service';
import { HarnessRuntime } from './harness-runtime';
import { HarnessSkill } from './harness.skill';
import { activeHarnessProvider } from './active-harness';
import { ModelRequestReader } from './model-request-reader';
import { ShortlistRequestReader } from '../../shortlist/shortlist-request-reader';

/**
 * Keeps the run ledger consistent with the task store after a crash: runs still `running` at
 * start are marked failed (`run.failed`, code interrupted), including the runs of tasks the task
 * reconciler marks failed.
 */
@Injectable()
export class HarnessLedgerReconciler implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(HarnessLedgerReconciler.name);

  constructor(
    private readonly ledger: HarnessLedgerService,
    private readonly tasks: TaskReconciler,
  ) {}

  onModuleInit(): void {
    this.tasks.onInterrupted(async (interrupted) => {
      for (const t of interrupted) if (t.runId) await this.interrupt(t.runId);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const run of await this.ledger.listRuns({ status: 'running' })) await this.interrupt(run.id);
  }

  private async interrupt(runId: string): Promise<void> {
    const event = await this.ledger.markInterrupted(runId, 'Interrupted: the server stopped during this run.');
    if (event) this.logger.warn(`Marked interrupted run ${runId} failed`);
  }
}

/**
 * The `superqode-harness` skill over A2A (issue #5): the harness engine configured from the server
 * settings (its own ledger file), context → session bindings, and crash reconciliation.
 */
@Module({
  imports: [
    RuntimeModule,
    ConfiguredTasksModule,
    HarnessModule.forRootAsync({
      inject: [A2aConfig],
      useFactory: (c: A2aConfig) => ({
        storePath: c.harness.served ? c.harness.storePath : null,
        secretValues: c.secretValues(),
      }),
    }),
  ],
  providers: [
    activeHarnessProvider,
    HarnessRuntime,
    ContextSessions,
    HarnessSkill,
    HarnessLedgerReconciler,
    { provide: ShortlistRequestReader, useClass: ModelRequestReader },
  ],
  exports: [HarnessSkill, ShortlistRequestReader],
})
export class HarnessA2aModule {}
