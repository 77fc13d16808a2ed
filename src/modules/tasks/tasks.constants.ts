/** Injection token of the SDK `TaskStore` seam (`@Inject(TASK_STORE) store: TaskStore`). */
export const TASK_STORE = Symbol('TASK_STORE');

/** Injection token of the {@link TasksModule} options (`TasksModuleOptions`). */
export const TASKS_MODULE_OPTIONS = Symbol('TASKS_MODULE_OPTIONS');

/** Name of the TypeORM data source holding tasks (`@InjectDataSource(TASKS_CONNECTION)`). */
export const TASKS_CONNECTION = 'tasks';

/** Table holding one row per (tenant, owner, task id). */
export const TASKS_TABLE = 'a2a_tasks';

/** Ledger table of the tasks data source's TypeORM migrations. */
export const TASKS_MIGRATIONS_TABLE = 'a2a_tasks_migrations';
