import type { DynamicModule, FactoryProvider, ModuleMetadata } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { EntityClassOrSchema } from '@nestjs/typeorm/dist/interfaces/entity-class-or-schema.type';
import type { DataSourceOptions } from 'typeorm';

/** Resolves the SQLite file of a store (null: in memory) from the module's injected options. */
export type StorePathFactory = (...args: unknown[]) => Promise<string | null>;

/** What a store module adds: its named data source and its entities. */
export interface NamedSqliteStore {
  /** Data source name (`'tasks'`, `'harness'`): one per store, separate files and schemas. */
  name: string;
  /** TypeORM options for a path (migrations, pragmas); `name` and `retryAttempts` are set here. */
  options: (path: string | null) => DataSourceOptions;
  entities: EntityClassOrSchema[];
}

/**
 * Adds a store's named TypeORM data source (migrated at start, closed at shutdown) and its
 * repositories to a module definition. Shared by the task store and the harness ledger.
 * @param imports - Modules the path factory's `inject` tokens come from.
 */
export function withSqliteDataSource(
  definition: DynamicModule,
  store: NamedSqliteStore,
  path: StorePathFactory,
  imports: ModuleMetadata['imports'] = [],
  inject: FactoryProvider['inject'] = [],
): DynamicModule {
  const dataSource = TypeOrmModule.forRootAsync({
    name: store.name,
    imports,
    inject,
    useFactory: async (...args: unknown[]) => ({
      ...store.options(await path(...args)),
      // Read back by TypeOrmCoreModule at shutdown to find (and close) this data source.
      name: store.name,
      // Opening a local file either works or will keep failing: fail boot at once.
      retryAttempts: 1,
    }),
  });
  const feature = TypeOrmModule.forFeature(store.entities, store.name);
  return { ...definition, imports: [...(definition.imports ?? []), dataSource, feature] };
}
