import { storesConfig } from '../../config/namespaces';
import { TasksModule, tasksModuleOptionsFrom } from './tasks.module';

/**
 * The one configured instance of {@link TasksModule} (settings from the `stores` config namespace).
 * Import this object, not a new `forRootAsync` call, so every importer shares one data source.
 */
export const ConfiguredTasksModule = TasksModule.forRootAsync({
  inject: [storesConfig.KEY],
  useFactory: tasksModuleOptionsFrom,
});
