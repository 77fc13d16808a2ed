import { Module } from '@nestjs/common';
import { RuntimeModule } from '../../../common/runtime/runtime.module';
import { ProcessInstance } from '../../../common/runtime/process-instance';
import { HarnessA2aModule } from '../../harness/a2a/harness-a2a.module';
import { ConfiguredTasksModule } from '../configured-tasks.module';
import { TasksService } from '../tasks.service';
import { HarnessRunReconciler } from './harness-run-reconciler.service';
import { StoreHeartbeat } from './store-heartbeat.service';
import { STORE_JOBS, StoreLifecycle } from './store-lifecycle.service';
import type { StoreJobs } from './store-lifecycle.service';
import { TaskRetention } from './task-retention.service';

/**
 * Server-only lifecycle of the task store and the harness ledger: ownership heartbeats,
 * reconciliation of orphaned work, retention. Imported by `AppModule` only: no CLI command
 * (card export, `a2a reconcile`, `harness run`) builds it.
 */
@Module({
  imports: [RuntimeModule, ConfiguredTasksModule, HarnessA2aModule],
  providers: [
    StoreHeartbeat,
    TaskRetention,
    HarnessRunReconciler,
    StoreLifecycle,
    {
      provide: STORE_JOBS,
      inject: [ProcessInstance, TasksService, HarnessRunReconciler, TaskRetention],
      useFactory: (
        instance: ProcessInstance,
        tasks: TasksService,
        runs: HarnessRunReconciler,
        retention: TaskRetention,
      ): StoreJobs => ({
        ownerId: instance.id,
        tasks,
        runs,
        retention,
      }),
    },
  ],
})
export class StoreLifecycleModule {}
