import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ConfigType } from '@nestjs/config';
import { storesConfig } from '../../../config/namespaces';
import { ConfiguredTasksModule } from '../configured-tasks.module';
import { TASKS_CONNECTION } from '../tasks.constants';
import { RuntimeModule } from '../../../common/runtime/runtime.module';
import { ClusterTasks } from './cluster-tasks.service';
import { PostgresTaskEventChannel } from './postgres-task-event-channel';
import { InProcessTaskEventChannel, TaskEventChannel } from './task-event-channel';
import { TaskLeases } from './task-leases';

/**
 * Tasks across instances (issue #15): the {@link TaskEventChannel} (PostgreSQL `LISTEN`/`NOTIFY`
 * with `--database-url`, else in-process) and {@link ClusterTasks} over it.
 */
@Module({
  imports: [ConfiguredTasksModule, RuntimeModule],
  providers: [
    {
      provide: TaskEventChannel,
      inject: [storesConfig.KEY, getDataSourceToken(TASKS_CONNECTION)],
      useFactory: (config: ConfigType<typeof storesConfig>, db: DataSource) => {
        const url = config.taskDatabaseUrl;
        if (!url) return new InProcessTaskEventChannel();
        return new PostgresTaskEventChannel(url, (sql, params) => db.query(sql, params));
      },
    },
    TaskLeases,
    ClusterTasks,
  ],
  exports: [ClusterTasks],
})
export class ClusterModule {}
