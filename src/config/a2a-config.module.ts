import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { A2aConfig } from './a2a.config';
import { RawEnv, validateEnv } from './env.schema';

/**
 * Global configuration: `@nestjs/config` validated by the env schema at boot, exposed as the
 * typed {@link A2aConfig}. `overrides` (CLI flags, tests) win over the process environment.
 */
@Global()
@Module({})
export class A2aConfigModule {
  /** @throws {Error} At boot: an invalid variable or a refused bind (message names each). */
  static forRoot(overrides: RawEnv = {}): DynamicModule {
    const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
    return {
      module: A2aConfigModule,
      imports: [
        ConfigModule.forRoot({
          ignoreEnvFile: true,
          cache: true,
          validate: (raw) => validateEnv({ ...raw, ...defined }) as unknown as Record<string, unknown>,
        }),
      ],
      providers: [A2aConfig],
      exports: [A2aConfig],
    };
  }
}
