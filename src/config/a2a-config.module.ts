import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Env, RawEnv } from './env.schema';
import { loadEnv } from './load-env';
import { boundNamespace, CONFIG_NAMESPACES } from './namespaces';

/**
 * An env already validated against the schema (bootstrap validates once, for the Fastify adapter
 * and the serve policy, then hands it to the container instead of validating again).
 */
export class ValidatedEnv {
  constructor(readonly env: Env) {}

  /**
   * Validates the process environment merged with `overrides` ({@link loadEnv}).
   * @throws {ConfigValidationError} One issue per invalid variable.
   */
  static load(overrides: RawEnv = {}): ValidatedEnv {
    return new ValidatedEnv(loadEnv(overrides));
  }
}

/**
 * Global configuration: `@nestjs/config` with one `registerAs` namespace per area (`server`,
 * `http`, `access`, `limits`, `stores`, `harness`, `card`, `shortlist`; see
 * `./namespaces`), each built from the env validated once by the schema. Inject a namespace with
 * `@Inject(serverConfig.KEY) server: ConfigType<typeof serverConfig>`. `overrides` (CLI flags,
 * tests) win over the process environment, and are never written back into it.
 */
@Global()
@Module({})
export class A2aConfigModule {
  /**
   * @param source - Overrides to validate with the environment, or an env validated already.
   * @throws {ConfigValidationError} An invalid variable (each one named).
   */
  static forRoot(source: RawEnv | ValidatedEnv = {}): DynamicModule {
    const env = source instanceof ValidatedEnv ? source.env : loadEnv(source);
    return {
      module: A2aConfigModule,
      imports: [
        // Not via `validate`: @nestjs/config would copy the validated values (operator token,
        // key secret) back into process.env, where every child process (e.g. a harness's shell)
        // would inherit them. The flat variables stay readable (`ConfigService.get(NAME)`).
        ConfigModule.forRoot({
          ignoreEnvFile: true,
          validatePredefined: false,
          skipProcessEnv: true,
          cache: true,
          load: [
            () => env as unknown as Record<string, unknown>,
            ...CONFIG_NAMESPACES.map((ns) => boundNamespace(ns, env)),
          ],
        }),
      ],
      exports: [ConfigModule],
    };
  }
}
