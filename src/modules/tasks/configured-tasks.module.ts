import { A2aConfig } from '../../config/a2a.config';
import { TasksModule, tasksModuleOptionsFrom } from './tasks.module';

/**
 * The one configured instance of {@link TasksModule} (settings from {@link A2aConfig}).
 * Import this object, not a new `forRootAsync` call, so every importer shares one data source.
 */
export const ConfiguredTasksModule = TasksModule.forRootAsync({
  inject: [A2aConfig],
  useFactory: tasksModuleOptionsFrom,
});
