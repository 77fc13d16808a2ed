import { ConfigurableModuleBuilder, DynamicModule, Module } from '@nestjs/common';
import type { FactoryProvider, ModuleMetadata } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RuntimeModule } from '../../../common/runtime/runtime.module';
import { HARNESS_CONNECTION, HARNESS_LEDGER_OPTIONS } from '../harness.constants';
import { harnessDataSourceOptions } from './harness-ledger-datasource';
import { HARNESS_ENTITIES } from './harness-ledger.entities';
import { HarnessLedgerService } from './harness-ledger.service';

/** Options of {@link HarnessLedgerModule}. */
export interface HarnessLedgerModuleOptions {
  /**
   * SQLite file of the ledger (parent directory created), e.g. `.superqode/a2a/harness.sqlite3`;
   * null or `':memory:'` keeps it in memory (tests).
   */
  path: string | null;
}

const { ConfigurableModuleClass, OPTIONS_TYPE, ASYNC_OPTIONS_TYPE } =
  new ConfigurableModuleBuilder<HarnessLedgerModuleOptions>({
    optionsInjectionToken: HARNESS_LEDGER_OPTIONS,
  })
    .setClassMethodName('forRoot')
    .build();

type PathFactory = (...args: unknown[]) => Promise<string | null>;

/** Adds the `'harness'` data source (migrated at start, closed at shutdown) to a definition. */
function withDataSource(
  definition: DynamicModule,
  path: PathFactory,
  imports: ModuleMetadata['imports'] = [],
  inject: FactoryProvider['inject'] = [],
): DynamicModule {
  const dataSource = TypeOrmModule.forRootAsync({
    name: HARNESS_CONNECTION,
    imports,
    inject,
    useFactory: async (...args: unknown[]) => ({
      ...harnessDataSourceOptions(await path(...args)),
      // Read back by TypeOrmCoreModule at shutdown to find (and close) this data source.
      name: HARNESS_CONNECTION,
      // Opening a local file either works or will keep failing: fail boot at once.
      retryAttempts: 1,
    }),
  });
  const feature = TypeOrmModule.forFeature(HARNESS_ENTITIES, HARNESS_CONNECTION);
  return { ...definition, imports: [...(definition.imports ?? []), dataSource, feature] };
}

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
  static forRoot(options: typeof OPTIONS_TYPE): DynamicModule {
    return withDataSource(super.forRoot(options), async () => options.path);
  }

  /**
   * Module with options from providers (`inject`, resolved in `imports` or global modules).
   * @throws {Error} Without `useFactory`: the data source options need the path too.
   */
  static forRootAsync(options: typeof ASYNC_OPTIONS_TYPE): DynamicModule {
    const { useFactory, imports = [], inject = [] } = options;
    if (!useFactory) throw new Error('HarnessLedgerModule.forRootAsync needs useFactory');
    const path = async (...args: unknown[]) => (await useFactory(...args)).path;
    return withDataSource(super.forRootAsync(options), path, imports, inject);
  }
}
