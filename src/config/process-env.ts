/** The process environment as plain variables (`undefined` when unset). */
export type ProcessEnv = Readonly<Record<string, string | undefined>>;

/**
 * The process environment: the one place `src/` reads `process.env` (issue #13). The server's
 * settings are validated from it by `loadEnv`; the client commands' credentials are read by
 * `clientEnv` (`./client-env.ts`); the harness takes provider keys (`HarnessProviderConfig`)
 * and the tool processes' PATH/LANG/TERM (`allowlistedEnvironment`) from it. Nothing writes back.
 */
export function processEnv(): ProcessEnv {
  return process.env;
}
