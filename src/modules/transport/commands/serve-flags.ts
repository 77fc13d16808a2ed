import type { Env, RawEnv } from '../../../config/env.schema';
import type { SettingNamer } from '../../../config/config-errors';

/**
 * The `serve a2a` flag of each variable it sets (see `toEnv`). A new flag adds its row here, so
 * a bad value is reported under the flag the user typed (issue #19).
 */
export const SERVE_FLAG_OF: Readonly<Partial<Record<keyof Env, string>>> = {
  SUPERQODE_A2A_HOST: '--host',
  SUPERQODE_A2A_PORT: '--port',
  SUPERQODE_A2A_PUBLIC_URL: '--public-url',
  SUPERQODE_A2A_TASK_STORE_PATH: '--task-store',
  SUPERQODE_A2A_TASK_STORE_ENABLED: '--no-task-store',
  SUPERQODE_A2A_DATABASE_URL: '--database-url',
  SUPERQODE_A2A_REDIS_URL: '--redis-url',
  SUPERQODE_A2A_METRICS_HOST: '--metrics-host',
  SUPERQODE_A2A_METRICS_PORT: '--metrics-port',
  SUPERQODE_A2A_MIGRATE: '--migrate',
  SUPERQODE_A2A_LEGACY_V03: '--no-legacy',
  SUPERQODE_A2A_CARD_CACHE_MAX_AGE_S: '--card-cache-max-age',
  SUPERQODE_A2A_ALLOW_REMOTE: '--allow-remote',
  SUPERQODE_A2A_TOKEN: '--token',
  SUPERQODE_A2A_ALLOW_ANONYMOUS: '--no-anonymous',
  SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: '--anonymous-per-minute',
  SUPERQODE_A2A_KEYED_PER_MINUTE: '--keyed-per-minute',
  SUPERQODE_A2A_GLOBAL_PER_DAY: '--global-per-day',
  SUPERQODE_A2A_TRUSTED_PROXY_HOPS: '--trusted-proxy-hops',
  SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE: '--auth-failures-per-minute',
  SUPERQODE_A2A_ANONYMOUS_SHARE_OF_DAY: '--anonymous-share-of-day',
  SUPERQODE_A2A_HARNESS_SPEC: '--spec',
  SUPERQODE_A2A_HARNESS_PROVIDER: '--provider',
  SUPERQODE_A2A_HARNESS_MODEL: '--model',
  SUPERQODE_A2A_HARNESS_BASE_URL: '--base-url',
  SUPERQODE_A2A_WORKING_DIR: '--working-dir',
  SUPERQODE_A2A_HARNESS_STORE_PATH: '--harness-store',
  SUPERQODE_A2A_MAX_TASKS: '--max-tasks',
  SUPERQODE_A2A_TASK_TTL_DAYS: '--task-ttl-days',
  SUPERQODE_A2A_MAX_PAGE_SIZE: '--max-page-size',
  SUPERQODE_A2A_EXPOSE_HARNESS: '--expose-harness',
  SUPERQODE_A2A_HARNESS_ACCESS: '--harness-access',
  SUPERQODE_A2A_ALLOW_UNSANDBOXED_HARNESS: '--allow-unsandboxed-harness',
  SUPERQODE_A2A_SHORTLIST_ENABLED: '--no-shortlist',
  SUPERQODE_A2A_CORS_ORIGINS: '--cors-origin',
  SUPERQODE_A2A_ALLOWED_HOSTS: '--allowed-host',
  SUPERQODE_A2A_MAX_JSON_DEPTH: '--max-json-depth',
  SUPERQODE_A2A_HEADERS_TIMEOUT_MS: '--headers-timeout-ms',
  SUPERQODE_A2A_REQUEST_TIMEOUT_MS: '--request-timeout-ms',
  SUPERQODE_A2A_KEEP_ALIVE_TIMEOUT_MS: '--keep-alive-timeout-ms',
  SUPERQODE_A2A_MAX_CONNECTIONS_PER_ADDRESS: '--max-connections-per-address',
};

/**
 * Names each setting as the user gave it: its flag when `given` (the flags' variables, from
 * `toEnv`) holds it, else the variable (the environment, or a default). With `preferFlag` (a
 * hint's other settings), the flag whenever there is one.
 */
export function serveSettingNamer(given: RawEnv): SettingNamer {
  return (variable, preferFlag = false) => {
    const flag = SERVE_FLAG_OF[variable as keyof Env];
    const fromFlag = given[variable as keyof Env] !== undefined;
    return flag && (fromFlag || preferFlag) ? flag : variable;
  };
}
