import { registerAs } from '@nestjs/config';
import type { ConfigFactoryKeyHost, ConfigObject } from '@nestjs/config';
import type { Env } from '../env.schema';

/**
 * One `@nestjs/config` namespace of the server's settings: a `registerAs` token (inject it with
 * `@Inject(x.KEY) cfg: ConfigType<typeof x>`) and the pure `build` that derives its object from
 * the env validated once at boot. `A2aConfigModule.forRoot` loads every namespace of
 * {@link CONFIG_NAMESPACES} from that one validated env, so a namespace never reads
 * `process.env` nor validates again.
 */
export type ConfigNamespace<T extends ConfigObject> = (() => T) &
  ConfigFactoryKeyHost<T> & {
    /** The namespace name (`server`, `http`, …): `ConfigService.get('<name>')` returns it too. */
    readonly namespace: string;
    /** Derives the namespace from the validated env (no I/O, no policy checks). */
    readonly build: (env: Env) => T;
  };

/**
 * Declares a namespace. The registered factory itself is only a token: the values come from
 * {@link boundNamespace} in `A2aConfigModule.forRoot`.
 * @throws {Error} From the factory, when a module loads the namespace on its own
 *   (`ConfigModule.forFeature`, `asProvider()`) instead of through `A2aConfigModule`.
 */
export function configNamespace<T extends ConfigObject>(
  namespace: string,
  build: (env: Env) => T,
): ConfigNamespace<T> {
  const token = registerAs<T, () => T>(namespace, () => {
    throw new Error(`The "${namespace}" settings are provided by A2aConfigModule.forRoot().`);
  });
  return Object.assign(token, { namespace, build });
}

/** The namespace's factory over one validated env (same `KEY`), for `ConfigModule.forRoot({ load })`. */
export function boundNamespace<T extends ConfigObject>(ns: ConfigNamespace<T>, env: Env) {
  return registerAs<T, () => T>(ns.namespace, () => ns.build(env));
}
