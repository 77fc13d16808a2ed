import { Env, RawEnv, validateEnv } from './env.schema';

/**
 * Validates `process.env` merged with `overrides` (CLI flags, tests; undefined values dropped).
 * The only other place besides `ConfigModule` that reads `process.env`: the HTTP adapter needs
 * `bodyLimit` and the log level before the Nest container exists.
 * @throws {Error} One line per invalid variable.
 */
export function loadEnv(overrides: RawEnv = {}): Env {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return validateEnv({ ...process.env, ...defined });
}
