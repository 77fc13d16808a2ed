import { ConfigurableModuleBuilder, DynamicModule, Module } from '@nestjs/common';
import type { Provider, Type } from '@nestjs/common';
import { RuntimeModule } from '../../common/runtime/runtime.module';
import { CoreHarnessAdapter } from './core/core-harness.adapter';
import { CoreRunLoop } from './core/core-run-loop';
import { SecretScrubber } from './core/secret-scrubber';
import type { CoreRunOptions } from './core/core-run-loop';
import { WorkspaceInspector } from './core/workspace.inspector';
import { HARNESS_MODULE_OPTIONS } from './harness.constants';
import { HarnessLedgerModule } from './ledger/harness-ledger.module';
import { HarnessProtocolController } from './protocol/harness-protocol';
import { HarnessModelResolver } from './providers/harness-model.resolver';
import { HarnessProviderConfig } from './providers/harness-provider.config';
import type { ProviderEnv } from './providers/harness-provider.config';

/** Options of {@link HarnessModule}. */
export interface HarnessModuleOptions extends CoreRunOptions {
  /**
   * SQLite file of the ledger (parent directory created); `HARNESS_DEFAULT_STORE_PATH` is
   * `.superqode/a2a/harness.sqlite3`. null or `':memory:'` keeps it in memory (tests).
   */
  storePath: string | null;
  /** PostgreSQL URL of the ledger instead of `storePath` (issue #15). */
  databaseUrl?: string | null;
  /** Run pending PostgreSQL migrations of the ledger at start. */
  migrate?: boolean;
  /**
   * Variables the provider keys are read from (OPENAI_API_KEY, ANTHROPIC_API_KEY,
   * GOOGLE_GENERATIVE_AI_API_KEY, OPENAI_COMPATIBLE_API_KEY); default the process environment.
   */
  providerEnv?: ProviderEnv;
  /**
   * Further secret values to scrub from tool output and model text (the operator token, the
   * API-key secret); provider keys and secret-looking variables of `providerEnv` always are.
   */
  secretValues?: readonly (string | undefined)[];
}

/** Module-definition extras: an adapter class to bind instead of the Core adapter. */
interface HarnessModuleExtras {
  /** Class bound to {@link HarnessProtocolController}; default {@link CoreHarnessAdapter}. */
  adapter?: Type<HarnessProtocolController>;
}

const moduleDefinition = new ConfigurableModuleBuilder<HarnessModuleOptions>({
  optionsInjectionToken: HARNESS_MODULE_OPTIONS,
})
  .setClassMethodName('forRoot')
  .setExtras<HarnessModuleExtras>({}, (definition, extras) => ({
    ...definition,
    providers: [...(definition.providers ?? []), controllerProvider(extras.adapter)],
  }))
  .build();
const { ConfigurableModuleClass } = moduleDefinition;

/** Binds the protocol token to the chosen adapter (the Core adapter by default). */
function controllerProvider(adapter?: Type<HarnessProtocolController>): Provider {
  return adapter
    ? { provide: HarnessProtocolController, useClass: adapter }
    : { provide: HarnessProtocolController, useExisting: CoreHarnessAdapter };
}

/** Adds the ledger module (same options source) and re-exports it. */
function withLedger(definition: DynamicModule, ledger: DynamicModule): DynamicModule {
  return {
    ...definition,
    imports: [...(definition.imports ?? []), ledger],
    exports: [...(definition.exports ?? []), ledger],
  };
}

/**
 * The harness: HarnessSpec runs through the Vercel AI SDK, recorded in the ledger. Exports
 * {@link HarnessProtocolController} (bound to {@link CoreHarnessAdapter} unless `adapter` names
 * another class) and {@link HarnessLedgerService}. Provider keys are read once, at start.
 * @example
 * HarnessModule.forRoot({ storePath: HARNESS_DEFAULT_STORE_PATH })
 * HarnessModule.forRootAsync({ inject: [harnessConfig.KEY], useFactory: (h) => ({ storePath: … }) })
 */
@Module({
  imports: [RuntimeModule],
  providers: [
    {
      provide: HarnessProviderConfig,
      inject: [HARNESS_MODULE_OPTIONS],
      useFactory: (options: HarnessModuleOptions) =>
        options.providerEnv
          ? new HarnessProviderConfig(options.providerEnv)
          : HarnessProviderConfig.fromProcessEnv(),
    },
    {
      provide: SecretScrubber,
      inject: [HARNESS_MODULE_OPTIONS, HarnessProviderConfig],
      useFactory: (options: HarnessModuleOptions, providers: HarnessProviderConfig) =>
        new SecretScrubber([...(options.secretValues ?? []), ...providers.secretValues()]),
    },
    HarnessModelResolver,
    WorkspaceInspector,
    CoreRunLoop,
    CoreHarnessAdapter,
  ],
  exports: [HarnessProtocolController, HarnessModelResolver, SecretScrubber],
})
export class HarnessModule extends ConfigurableModuleClass {
  /** Module with fixed options. */
  static forRoot(options: typeof moduleDefinition.OPTIONS_TYPE): DynamicModule {
    const { storePath: path, databaseUrl, migrate } = options;
    const ledger = HarnessLedgerModule.forRoot({ path, databaseUrl, migrate });
    return withLedger(super.forRoot(options), ledger);
  }

  /**
   * Module with options from providers (`inject`, resolved in `imports` or global modules).
   * @throws {Error} Without `useFactory`: the ledger needs the store path too.
   */
  static forRootAsync(options: typeof moduleDefinition.ASYNC_OPTIONS_TYPE): DynamicModule {
    const { useFactory, imports = [], inject = [] } = options;
    if (!useFactory) throw new Error('HarnessModule.forRootAsync needs useFactory');
    const ledger = HarnessLedgerModule.forRootAsync({
      imports,
      inject,
      useFactory: async (...args: unknown[]) => {
        const { storePath: path, databaseUrl, migrate } = await useFactory(...args);
        return { path, databaseUrl, migrate };
      },
    });
    return withLedger(super.forRootAsync(options), ledger);
  }
}
