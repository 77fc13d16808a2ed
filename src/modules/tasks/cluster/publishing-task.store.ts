import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { ClusterTasks } from './cluster-tasks.service';

/**
 * A {@link TaskStore} that announces every saved task to all instances once the save resolved
 * (so a `changed` signal never precedes the state it announces); reads are the wrapped store's.
 * Used where the channel cannot send in the store's transaction (SQLite, memory); on PostgreSQL
 * the group commit announces each batch itself (`TaskEventChannel.batchNotifications`).
 */
export class PublishingTaskStore implements TaskStore {
  constructor(
    private readonly store: TaskStore,
    private readonly cluster: ClusterTasks,
  ) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.store.save(task, context);
    await this.cluster.changed(this.cluster.keyOf(task.id, context));
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.store.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.store.list(params, context);
  }
}
