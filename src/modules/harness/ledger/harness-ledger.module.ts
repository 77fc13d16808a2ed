import { ConfigurableModuleBuilder, DynamicModule, Module } from '@nestjs/common';
import { RuntimeModule } from '../../../common/runtime/runtime.module';
import { HARNESS_CONNECTION, HARNESS_LEDGER_OPTIONS } from '../harness.constants';
import { harnessDataSourceOptions } from './harness-ledger-datasource';
import { HARNESS_ENTITIES } from './harness-ledger.entities';
import { HarnessLedgerService } from './harness-ledger.service';
import { withStoreDataSource } from '../../../common/database/store-data-source';
import type { NamedStore, StoreLocation } from '../../../common/database/store-data-source';

/** Options of {@link HarnessLedgerModule}. */
export interface HarnessLedgerModuleOptions extends StoreLocation {
  /**
   * SQLite file of the ledger (parent directory created), e.g. `.superqode/a2a/harness.sqlite3`;
   * null or `':memory:'` keeps it in memory (tests).
   */
  path: string | null;
  /** PostgreSQL URL: the ledger lives there instead of `path` (issue #15). */
  databaseUrl?: string | null;
  /** Run pending PostgreSQL migrations at start. */
  migrate?: boolean;
}

const moduleDefinition = new ConfigurableModuleBuilder<HarnessLedgerModuleOptions>({
  optionsInjectionToken: HARNESS_LEDGER_OPTIONS,
})
  .setClassMethodName('forRoot')
  .build();
const { ConfigurableModuleClass } = moduleDefinition;

/** This module's store: its named data source, options and entities. */
const STORE: NamedStore = {
  name: HARNESS_CONNECTION,
  options: harnessDataSourceOptions,
  entities: HARNESS_ENTITIES,
};

/**
 * The harness ledger (sessions, runs, events) on its own SQLite file through TypeORM, behind
 * {@link HarnessLedgerService}. Owns the `'harness'` data source; its migrations run at start.
 * @example
 * HarnessLedgerModule.forRoot({ path: '.superqode/a2a/harness.sqlite3' })
 * HarnessLedgerModule.forRootAsync({ inject: [Settings], useFactory: (s) => ({ path: s.file }) })
 */
@Module({
  imports: [RuntimeModule],
  providers: [HarnessLedgerService],
  exports: [HarnessLedgerService],
})
export class HarnessLedgerModule extends ConfigurableModuleClass {
  /** Module with fixed options. */
  static forRoot(options: typeof moduleDefinition.OPTIONS_TYPE): DynamicModule {
    return withStoreDataSource(super.forRoot(options), STORE, async () => options);
  }

  /**
   * Module with options from providers (`inject`, resolved in `imports` or global modules).
   * @throws {Error} Without `useFactory`: the data source options need the path too.
   */
  static forRootAsync(options: typeof moduleDefinition.ASYNC_OPTIONS_TYPE): DynamicModule {
    const { useFactory, imports = [], inject = [] } = options;
    if (!useFactory) throw new Error('HarnessLedgerModule.forRootAsync needs useFactory');
    const location = async (...args: unknown[]) => useFactory(...args);
    return withStoreDataSource(super.forRootAsync(options), STORE, location, imports, inject);
  }
}
