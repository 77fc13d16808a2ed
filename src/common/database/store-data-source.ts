import type { DynamicModule, FactoryProvider, ModuleMetadata } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { EntityClassOrSchema } from '@nestjs/typeorm/dist/interfaces/entity-class-or-schema.type';
import type { DataSourceOptions } from 'typeorm';
import { openStore } from './store-migrations';

/**
 * Where a store lives: a SQLite file (`path`; null keeps it in memory) or, with `databaseUrl`,
 * PostgreSQL (issue #15). `migrate` runs pending PostgreSQL migrations at start (SQLite, the
 * embedded default, always migrates).
 */
export interface StoreLocation {
  path: string | null;
  databaseUrl?: string | null;
  migrate?: boolean;
}

/** Resolves a store's location from the module's injected options. */
export type StoreLocationFactory = (...args: unknown[]) => Promise<StoreLocation>;

/** What a store module adds: its named data source and its entities. */
export interface NamedStore {
  /** Data source name (`'tasks'`, `'harness'`): one per store, separate files and schemas. */
  name: string;
  /** TypeORM options for a location (migrations, pragmas); `name` and `retryAttempts` are set here. */
  options: (location: StoreLocation) => DataSourceOptions;
  entities: EntityClassOrSchema[];
}

/**
 * Adds a store's named TypeORM data source (migrated at start, or on PostgreSQL checked to be
 * current; closed at shutdown) and its repositories to a module definition. Shared by the task
 * store and the harness ledger.
 * @param imports - Modules the location factory's `inject` tokens come from.
 * @throws {Error} At start, on PostgreSQL without `migrate`: a migration is pending (names it).
 */
export function withStoreDataSource(
  definition: DynamicModule,
  store: NamedStore,
  location: StoreLocationFactory,
  imports: ModuleMetadata['imports'] = [],
  inject: FactoryProvider['inject'] = [],
): DynamicModule {
  const dataSource = TypeOrmModule.forRootAsync({
    name: store.name,
    imports,
    inject,
    useFactory: async (...args: unknown[]) => ({
      ...store.options(await location(...args)),
      // Read back by TypeOrmCoreModule at shutdown to find (and close) this data source.
      name: store.name,
      // A file either opens or keeps failing; an unreachable database fails boot too (the
      // orchestrator restarts the instance) rather than serving without its store. No retry, so
      // the start's reason is logged once (by main), not also as "Retrying (1)..." with a stack.
      toRetry: () => false,
    }),
    dataSourceFactory: async (options) => openStore(options!),
  });
  const feature = TypeOrmModule.forFeature(store.entities, store.name);
  return { ...definition, imports: [...(definition.imports ?? []), dataSource, feature] };
}
