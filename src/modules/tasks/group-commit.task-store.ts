import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { PreparedTaskRow, TypeOrmTaskStore } from './typeorm-task.store';
import type { BatchNotifications } from './postgres-batch-upsert';

interface Batch {
  rows: PreparedTaskRow[];
  committed: Promise<void>;
}

/**
 * Group commit over {@link TypeOrmTaskStore} (issue #14): the saves made in one turn of the event
 * loop (the concurrent requests whose I/O arrived together) are committed in one transaction
 * (SQLite: one journal sync; PostgreSQL: one transaction per batch), run from `setImmediate`;
 * each save resolves only after that commit (a rejected commit rejects every save of the batch,
 * none of whose rows is written). A save captures its row at the call, so the task may change
 * afterwards. Loads and lists first wait for the batch queued before them, so a reply never names
 * a state that is not yet durable. On PostgreSQL, `notifications` (the cluster's `changed`
 * signals, issue #15) are sent in the batch's own statement, so a save resolves once its task is
 * both written and announced.
 * @see SQLite "Atomic Commit In SQLite" §3; the lean request path in `a2a-core/`.
 */
export class GroupCommitTaskStore implements TaskStore {
  private batch: Batch | undefined;

  /**
   * @param inner - The store whose {@link TypeOrmTaskStore.commitRows} writes each batch.
   * @param notifications - PostgreSQL only: what each batch announces, in its transaction.
   */
  constructor(
    private readonly inner: TypeOrmTaskStore,
    private readonly notifications?: BatchNotifications,
  ) {}

  /**
   * Queues the task's row for the next group commit.
   * @throws {Error} The task has no id (at once), or the commit failed.
   */
  save(task: Task, context: ServerCallContext): Promise<void> {
    let row: PreparedTaskRow;
    try {
      row = this.inner.rowOf(task, context);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    const batch = this.batch ?? this.open();
    batch.rows.push(row);
    return batch.committed;
  }

  /** The caller's task, read after the saves queued before this call committed. */
  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    await this.settled();
    return this.inner.load(taskId, context);
  }

  /** The caller's tasks (see {@link TypeOrmTaskStore.list}), after the queued saves committed. */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    await this.settled();
    return this.inner.list(params, context);
  }

  private open(): Batch {
    const rows: PreparedTaskRow[] = [];
    const batch: Batch = {
      rows,
      committed: new Promise<void>((resolve, reject) => {
        setImmediate(() => {
          if (this.batch === batch) this.batch = undefined;
          this.inner.commitRows(rows, this.notifications).then(resolve, reject);
        });
      }),
    };
    this.batch = batch;
    return batch;
  }

  /** Resolves when the batch open now (if any) has committed or failed. */
  private async settled(): Promise<void> {
    if (this.batch) await this.batch.committed.catch(() => undefined);
  }
}
