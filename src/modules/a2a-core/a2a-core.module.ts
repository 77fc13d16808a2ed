import { Inject, Module } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { DefaultExecutionEventBusManager } from '@a2a-js/sdk/server';
import type { AgentExecutor, TaskStore } from '@a2a-js/sdk/server';
import { AgentCardModule } from '../agent-card/agent-card.module';
import { AgentCardService } from '../agent-card/agent-card.service';
import { SkillsModule } from '../skills/skills.module';
import { SkillRouter } from '../skills/skill-router.service';
import { AGENT_EXECUTOR } from '../skills/skills.constants';
import { TASK_STORE } from '../tasks/tasks.constants';
import { ConfiguredTasksModule } from '../tasks/configured-tasks.module';
import { GroupCommitTaskStore } from '../tasks/group-commit.task-store';
import { PendingTaskWrites } from '../tasks/pending-task-writes';
import { TypeOrmTaskStore } from '../tasks/typeorm-task.store';
import { SuperqodeRequestHandler } from './a2a-request-handler';
import { A2A_REQUEST_HANDLER } from './a2a-core.constants';
import { LeanExecutions } from './lean-executions';
import { ClusterModule } from '../tasks/cluster/cluster.module';
import { ClusterTasks } from '../tasks/cluster/cluster-tasks.service';
import { PublishingTaskStore } from '../tasks/cluster/publishing-task.store';

/** Longest a graceful stop waits for the core's pending task writes, ms. */
export const CORE_SHUTDOWN_GRACE_MS = 5_000;

/**
 * The A2A protocol core, independent of any binding: {@link SuperqodeRequestHandler} (our own SDK
 * `A2ARequestHandler`, issue #14) over a group-committing view of the task store (`TASK_STORE`,
 * from TasksModule) and the skill router's `AgentExecutor` (from SkillsModule), with the
 * in-process event buses of its executions. Exported under {@link A2A_REQUEST_HANDLER}; the
 * transport controllers and the SDK transport handlers call it.
 */
@Module({
  imports: [AgentCardModule, SkillsModule, ConfiguredTasksModule, ClusterModule],
  providers: [
    {
      provide: A2A_REQUEST_HANDLER,
      inject: [
        AgentCardService,
        TASK_STORE,
        AGENT_EXECUTOR,
        SkillRouter,
        PendingTaskWrites,
        ClusterTasks,
      ],
      useFactory: (
        cards: AgentCardService,
        store: TaskStore,
        executor: AgentExecutor,
        router: SkillRouter,
        pending: PendingTaskWrites,
        cluster: ClusterTasks,
      ) => {
        // Every committed save is announced to the other instances (issue #15): on PostgreSQL in
        // the group commit's own statement, else after the save.
        const notify = store instanceof TypeOrmTaskStore ? cluster.batchNotifications() : undefined;
        const grouped =
          store instanceof TypeOrmTaskStore ? new GroupCommitTaskStore(store, notify) : store;
        const shared = notify ? grouped : new PublishingTaskStore(grouped, cluster);
        const buses = new DefaultExecutionEventBusManager();
        const card = { capabilities: cards.capabilities };
        const executions = new LeanExecutions(
          card,
          shared,
          cluster.track(executor),
          buses,
          pending,
        );
        return new SuperqodeRequestHandler(cards, shared, executions, router, cluster);
      },
    },
  ],
  exports: [A2A_REQUEST_HANDLER],
})
export class A2aCoreModule implements OnApplicationShutdown {
  constructor(@Inject(PendingTaskWrites) private readonly pending: PendingTaskWrites) {}

  /** The executions' last writes (e.g. CANCELED of a graceful stop) settle before stores close. */
  async onApplicationShutdown(): Promise<void> {
    await this.pending.settle(CORE_SHUTDOWN_GRACE_MS);
  }
}
