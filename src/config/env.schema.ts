import { z } from 'zod';

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes' || v === 'on');

/**
 * Every environment variable the server reads, with types, ranges and defaults.
 * Validated once at boot by {@link validateEnv}; an invalid value stops the process.
 * CLI flags of `superqode serve a2a` are translated to these names, so both paths share it.
 */
export const envSchema = z.object({
  /** Interface to bind; non-loopback needs SUPERQODE_A2A_ALLOW_REMOTE. */
  SUPERQODE_A2A_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** TCP port, 1-65535 (0 = any free port, used by tests). */
  SUPERQODE_A2A_PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  /** Absolute http(s) base URL advertised in the Agent Card; default http://<host>:<port>. */
  SUPERQODE_A2A_PUBLIC_URL: z.string().trim().url().optional(),
  /** Allow binding outside loopback (127.0.0.1, ::1, localhost). */
  SUPERQODE_A2A_ALLOW_REMOTE: bool.default(false),
  /** SQLite file of the durable task store; directory is created if missing. */
  SUPERQODE_A2A_TASK_STORE_PATH: z.string().trim().min(1).default('.superqode/a2a/tasks.sqlite3'),
  /** false keeps tasks in memory only (`--no-task-store`). */
  SUPERQODE_A2A_TASK_STORE_ENABLED: bool.default(true),
  /** Serve and advertise the A2A 0.3 JSON-RPC interface. */
  SUPERQODE_A2A_LEGACY_V03: bool.default(true),
  /** Agent Card `Cache-Control: max-age`, seconds (0 = no-cache). */
  SUPERQODE_A2A_CARD_CACHE_MAX_AGE_S: z.coerce.number().int().min(0).max(31_536_000).default(300),
  /** Largest accepted request body, bytes; larger bodies get 413. */
  SUPERQODE_A2A_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(64 * 1024 * 1024).default(1_048_576),
  /** Serve the harness-shortlist skill. */
  SUPERQODE_A2A_SHORTLIST_ENABLED: bool.default(true),
  /** Nest logger levels at or above this one are printed. */
  SUPERQODE_A2A_LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
});

/** The validated configuration object (defaults applied, strings coerced). */
export type Env = z.infer<typeof envSchema>;
/** Raw variables as they arrive from the environment or CLI flags. */
export type RawEnv = Partial<Record<keyof Env, string | number | boolean | undefined>>;

/**
 * Validates raw variables against {@link envSchema}.
 * @param raw - `process.env` merged with CLI overrides (unknown keys are ignored).
 * @returns The typed configuration.
 * @throws {Error} One line per invalid variable: `NAME: message`.
 */
export function validateEnv(raw: Record<string, unknown>): Env {
  const r = envSchema.safeParse(raw);
  if (r.success) return r.data;
  throw new Error(
    'Invalid configuration:\n' +
      r.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n'),
  );
}
