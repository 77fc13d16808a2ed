import { Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { accessConfig, harnessConfig, storesConfig } from '../../../config/namespaces';
import { RuntimeModule } from '../../../common/runtime/runtime.module';
import { ConfiguredTasksModule } from '../../tasks/configured-tasks.module';
import { HarnessModule } from '../harness.module';
import { ContextSessions } from './context-sessions.service';
import { HarnessRuntime } from './harness-runtime';
import { HarnessSkill } from './harness.skill';
import { HarnessStartupChecks } from './harness-startup-checks';
import { activeHarnessProvider } from './active-harness';
import { ModelRequestReader } from './model-request-reader';
import { ShortlistRequestReader } from '../../shortlist/shortlist-request-reader';

/** The harness engine on the server's settings (its own ledger file). */
const HARNESS = HarnessModule.forRootAsync({
  inject: [harnessConfig.KEY, accessConfig.KEY, storesConfig.KEY],
  useFactory: (
    harness: ConfigType<typeof harnessConfig>,
    access: ConfigType<typeof accessConfig>,
    stores: ConfigType<typeof storesConfig>,
  ) => ({
    storePath: harness.served ? harness.storePath : null,
    secretValues: access.secretValues(),
    databaseUrl: stores.harnessDatabaseUrl,
    migrate: stores.migrate,
  }),
});

/**
 * The `superqode-harness` skill over A2A (issue #5): the harness engine configured from the server
 * settings (its own ledger file) and context → session bindings. Crash reconciliation lives in
 * the server-only `StoreLifecycleModule`.
 */
@Module({
  imports: [RuntimeModule, ConfiguredTasksModule, HARNESS],
  providers: [
    activeHarnessProvider,
    HarnessRuntime,
    ContextSessions,
    HarnessSkill,
    HarnessStartupChecks,
    { provide: ShortlistRequestReader, useClass: ModelRequestReader },
  ],
  // HARNESS re-exported: the server's store lifecycle heartbeats and reconciles its ledger.
  exports: [HarnessSkill, HarnessRuntime, ShortlistRequestReader, HARNESS],
})
export class HarnessA2aModule {}
