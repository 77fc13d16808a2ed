import { ConfigurableModuleBuilder, DynamicModule, Module } from '@nestjs/common';
import type { TaskStore } from '@a2a-js/sdk/server';
import { MemoryTaskStore } from './memory-task.store';
import type { StoreSettings } from '../../config/namespaces';
import { TaskEntity } from './task.entity';
import { tasksDataSourceOptions } from './tasks-datasource';
import { TASK_STORE, TASKS_CONNECTION, TASKS_MODULE_OPTIONS } from './tasks.constants';
import { TypeOrmTaskStore } from './typeorm-task.store';
import { TaskReconciler } from './task-reconciler.service';
import type { TaskReconcilerOptions } from './task-reconciler.service';
import { TaskWriteFailures } from './task-write-failures';
import { StoreProbe } from './store-probe.service';
import { PendingTaskWrites } from './pending-task-writes';
import { TasksService } from './tasks.service';
import { RuntimeModule } from '../../common/runtime/runtime.module';
import type { TypeOrmTaskStoreOptions } from './typeorm-task.store';
import { withStoreDataSource } from '../../common/database/store-data-source';
import type { NamedStore, StoreLocation } from '../../common/database/store-data-source';

/** Task cap of the memory-only mode (no task store file). */
export const MEMORY_MODE_MAX_TASKS = 10_000;
/**
 * Budget of the memory-only mode's kept task JSON, bytes (128 MiB): with the task cap it bounds
 * the process's memory whatever the size of each task (10,000 tasks of a 1 MiB message each were
 * ~10 GiB).
 */
export const MEMORY_MODE_MAX_BYTES = 128 * 1024 * 1024;

/** Options of {@link TasksModule}. */
export interface TasksModuleOptions
  extends TypeOrmTaskStoreOptions, TaskReconcilerOptions, StoreLocation {
  /**
   * SQLite file of the durable store (parent directory created); null keeps tasks in memory
   * ({@link MemoryTaskStore}; the `'tasks'` data source is then SQLite `:memory:`, for the
   * lifecycle services).
   */
  path: string | null;
  /** Task cap of the memory-only store ({@link MemoryTaskStoreOptions.maxTasks}). */
  maxTasks?: number | null;
  /** Kept-bytes budget of the memory-only store ({@link MemoryTaskStoreOptions.maxBytes}). */
  maxBytes?: number | null;
  /** PostgreSQL URL: the store lives there instead of `path` (issue #15). */
  databaseUrl?: string | null;
}

/**
 * Task store options from the server configuration: the configured file, or memory only
 * capped at {@link MEMORY_MODE_MAX_TASKS} tasks and {@link MEMORY_MODE_MAX_BYTES} when the store
 * is disabled.
 */
export function tasksModuleOptionsFrom(
  config: Pick<StoreSettings, 'taskStorePath'> &
    Partial<
      Pick<
        StoreSettings,
        'taskDatabaseUrl' | 'migrate' | 'leaseMs' | 'maxPageSize' | 'maxListReplyBytes'
      >
    >,
): TasksModuleOptions {
  const path = config.taskStorePath;
  const databaseUrl = config.taskDatabaseUrl ?? null;
  const { leaseMs, maxPageSize, maxListReplyBytes } = config;
  // The durable store is bounded by the server's background retention, not on the save path.
  const memoryOnly = path === null;
  return {
    path,
    databaseUrl,
    migrate: config.migrate,
    maxTasks: memoryOnly ? MEMORY_MODE_MAX_TASKS : null,
    maxBytes: memoryOnly ? MEMORY_MODE_MAX_BYTES : null,
    leaseMs,
    maxPageSize,
    maxListReplyBytes,
  };
}

const moduleDefinition = new ConfigurableModuleBuilder<TasksModuleOptions>({
  optionsInjectionToken: TASKS_MODULE_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();
const { ConfigurableModuleClass } = moduleDefinition;

/** This module's store: its named data source, options and entities. */
const STORE: NamedStore = {
  name: TASKS_CONNECTION,
  options: tasksDataSourceOptions,
  entities: [TaskEntity],
};

/**
 * The A2A task store behind the {@link TASK_STORE} token: SDK `TaskStore` on TypeORM (SQLite, or
 * PostgreSQL with `databaseUrl`), or {@link MemoryTaskStore} when `path` is null.
 * Owns the `'tasks'` data source; its migrations run before the app listens.
 * @example
 * TasksModule.forRoot({ path: 'data/tasks.sqlite3' })
 * TasksModule.forRootAsync({ inject: [storesConfig.KEY], useFactory: tasksModuleOptionsFrom })
 */
@Module({
  imports: [RuntimeModule],
  providers: [
    TypeOrmTaskStore,
    {
      provide: TASK_STORE,
      inject: [TASKS_MODULE_OPTIONS, TypeOrmTaskStore],
      useFactory: (options: TasksModuleOptions, durable: TypeOrmTaskStore): TaskStore =>
        options.path === null && !options.databaseUrl ? new MemoryTaskStore(options) : durable,
    },
    TaskReconciler,
    TaskWriteFailures,
    StoreProbe,
    PendingTaskWrites,
    TasksService,
  ],
  // TASK_STORE for the A2A core's request handler; TaskWriteFailures for the heartbeat's probe.
  // Everyone else goes through TasksService.
  exports: [TASK_STORE, TasksService, TaskWriteFailures, PendingTaskWrites],
})
export class TasksModule extends ConfigurableModuleClass {
  /** Module with fixed options. */
  static forRoot(options: typeof moduleDefinition.OPTIONS_TYPE): DynamicModule {
    return withStoreDataSource(super.forRoot(options), STORE, async () => options);
  }

  /**
   * Module with options from providers (`inject`, resolved in `imports` or global modules).
   * @throws {Error} Without `useFactory`: the data source options need the location too.
   */
  static forRootAsync(options: typeof moduleDefinition.ASYNC_OPTIONS_TYPE): DynamicModule {
    const { useFactory, imports = [], inject = [] } = options;
    if (!useFactory) throw new Error('TasksModule.forRootAsync needs useFactory');
    const location = async (...args: unknown[]) => useFactory(...args);
    return withStoreDataSource(super.forRootAsync(options), STORE, location, imports, inject);
  }
}
