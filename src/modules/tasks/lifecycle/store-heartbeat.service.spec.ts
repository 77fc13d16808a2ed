import { TaskState } from '@a2a-js/sdk';
import type { Task } from '@a2a-js/sdk';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/runtime/clock';
import { ProcessInstance } from '../../../common/runtime/process-instance';
import type { HarnessLedgerService } from '../../harness/ledger/harness-ledger.service';
import { ClusterTasks } from '../cluster/cluster-tasks.service';
import { InProcessTaskEventChannel } from '../cluster/task-event-channel';
import type { TaskLeases } from '../cluster/task-leases';
import { TaskWriteFailures } from '../task-write-failures';
import { tasksDataSourceOptions } from '../tasks-datasource';
import type { TasksService } from '../tasks.service';
import { TypeOrmTaskStore } from '../typeorm-task.store';
import { StoreHeartbeat } from './store-heartbeat.service';
import { aTask, alice } from '../../../../test/fixtures/task-store';

const working = (id: string): Task => aTask(id, { state: TaskState.TASK_STATE_WORKING });

describe(StoreHeartbeat.name, () => {
  let dataSource: DataSource;

  beforeEach(async () => {
    dataSource = await new DataSource(tasksDataSourceOptions(null)).initialize();
  });
  afterEach(async () => {
    await dataSource.destroy();
  });

  it('announces a task it ends FAILED after a failed save, so followers on other instances see it (issue #15)', async () => {
    const failures = new TaskWriteFailures();
    const instance = new ProcessInstance();
    const store = new TypeOrmTaskStore(dataSource, {}, instance, failures);
    await store.save(working('t-1'), alice);
    failures.record({ tenant: '', owner: 'alice' }, working('t-1'), new Error('disk full'));
    const channel = new InProcessTaskEventChannel();
    const tasks = { onOrphansFailed: jest.fn() } as unknown as TasksService;
    const cluster = new ClusterTasks(
      channel,
      { leaseMs: 30_000 } as never,
      tasks,
      {} as TaskLeases,
      failures,
    );
    cluster.onModuleInit();
    let announced = 0;
    channel.watch({ tenant: '', owner: 'alice', taskId: 't-1' }, () => (announced += 1));
    const ledger = { renewRunLeases: jest.fn().mockResolvedValue(undefined) };
    const heartbeat = new StoreHeartbeat(
      dataSource,
      instance,
      new Clock(),
      failures,
      ledger as unknown as HarnessLedgerService,
    );

    await heartbeat.beat();

    expect((await store.load('t-1', alice))?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(failures.size).toBe(0);
    expect(announced).toBe(1);
  });
});
