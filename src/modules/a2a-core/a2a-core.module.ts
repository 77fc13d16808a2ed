import { Module } from '@nestjs/common';
import type { AgentExecutor, TaskStore } from '@a2a-js/sdk/server';
import { AgentCardModule } from '../agent-card/agent-card.module';
import { AgentCardService } from '../agent-card/agent-card.service';
import { SkillsModule } from '../skills/skills.module';
import { SkillRouter } from '../skills/skill-router.service';
import { AGENT_EXECUTOR } from '../skills/skills.constants';
import { TASK_STORE } from '../tasks/tasks.constants';
import { ConfiguredTasksModule } from '../tasks/configured-tasks.module';
import { SuperqodeRequestHandler } from './a2a-request-handler';
import { A2A_REQUEST_HANDLER } from './a2a-core.constants';
import { JoinedTextPartsStore } from '../tasks/joined-text-parts';
import { ClusterModule } from '../tasks/cluster/cluster.module';
import { ClusterTasks } from '../tasks/cluster/cluster-tasks.service';
import { PublishingTaskStore } from '../tasks/cluster/publishing-task.store';

/**
 * The A2A protocol core, independent of any binding: the SDK's `DefaultRequestHandler` (as
 * {@link SuperqodeRequestHandler}, holding the in-process event buses) over the task store
 * (`TASK_STORE`, from TasksModule) and the skill router's `AgentExecutor` (from SkillsModule).
 * Exported as the SDK `A2ARequestHandler` under {@link A2A_REQUEST_HANDLER}; the transport
 * controllers and the SDK transport handlers call it.
 */
@Module({
  imports: [AgentCardModule, SkillsModule, ConfiguredTasksModule, ClusterModule],
  providers: [
    {
      provide: A2A_REQUEST_HANDLER,
      inject: [AgentCardService, TASK_STORE, AGENT_EXECUTOR, SkillRouter, ClusterTasks],
      useFactory: (
        cards: AgentCardService,
        store: TaskStore,
        executor: AgentExecutor,
        router: SkillRouter,
        cluster: ClusterTasks,
      ) =>
        new SuperqodeRequestHandler(
          cards,
          new JoinedTextPartsStore(new PublishingTaskStore(store, cluster)),
          cluster.track(executor),
          router,
          cluster,
        ),
    },
  ],
  exports: [A2A_REQUEST_HANDLER],
})
export class A2aCoreModule {}
