import { Env, RawEnv, validateEnv } from './env.schema';
import { processEnv, withoutBlanks } from './process-env';

/**
 * Validates the process environment ({@link processEnv}) merged with `overrides` (CLI flags,
 * tests; undefined and blank values dropped: a blank flag or option is not given, so it hides
 * nothing). `A2aConfigModule` loads its `ConfigModule` from this (never
 * from `process.env` directly); the HTTP adapter calls it too, for `bodyLimit` and the log level
 * before the Nest container exists.
 * @throws {Error} One line per invalid variable.
 */
export function loadEnv(overrides: RawEnv = {}): Env {
  return validateEnv({ ...processEnv(), ...withoutBlanks(overrides) });
}
