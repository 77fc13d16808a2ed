import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { A2aConfig } from './a2a.config';
import { RawEnv } from './env.schema';
import { loadEnv } from './load-env';

/**
 * Global configuration: `@nestjs/config` validated by the env schema at boot, exposed as the
 * typed {@link A2aConfig}. `overrides` (CLI flags, tests) win over the process environment, and
 * are never written back into it.
 */
@Global()
@Module({})
export class A2aConfigModule {
  /** @throws {Error} At boot: an invalid variable or a refused bind (message names each). */
  static forRoot(overrides: RawEnv = {}): DynamicModule {
    return {
      module: A2aConfigModule,
      imports: [
        // Validated once here (loadEnv throws on any bad value). Not via `validate`: @nestjs/config
        // would copy the validated values (operator token, key secret) back into process.env,
        // where every child process (e.g. a harness's shell) would inherit them.
        ConfigModule.forRoot({
          ignoreEnvFile: true,
          validatePredefined: false,
          skipProcessEnv: true,
          cache: true,
          load: [() => loadEnv(overrides) as unknown as Record<string, unknown>],
        }),
      ],
      providers: [A2aConfig],
      exports: [A2aConfig],
    };
  }
}
