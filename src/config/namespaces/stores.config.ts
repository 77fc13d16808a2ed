import type { Env } from '../env.schema';
import { configNamespace } from './config-namespace';
import { harnessServed } from './harness.config';

/**
 * The task store and the harness ledger (namespace `stores`): files or PostgreSQL, ownership
 * leases, retention and ListTasks caps (issues #11, #13, #15). The PostgreSQL URL carries its
 * password, so it sits in a private field behind getters.
 */
export class StoreSettings {
  readonly #databaseUrl: string | null;
  /** Redis URL of the shared rate limits (issue #15), private: it may carry a password. */
  readonly #redisUrl: string | null;
  readonly #harnessLedgerServed: boolean;
  /** SQLite file of the task store, or null (memory, `--no-task-store`). */
  readonly taskStorePath: string | null;
  /** Pending PostgreSQL migrations run at start (`--migrate`). */
  readonly migrate: boolean;
  /** Lease of owned work, ms. */
  readonly leaseMs: number;
  /** Heartbeat period, ms (clamped below a third of the lease). */
  readonly heartbeatMs: number;
  /** Row cap of the durable store. */
  readonly maxTasks: number;
  /** Finished-task retention, days; 0 keeps them. */
  readonly taskTtlDays: number;
  /** ListTasks page cap. */
  readonly maxPageSize: number;
  /** ListTasks stored-JSON cap, bytes. */
  readonly maxListReplyBytes: number;

  constructor(env: Env) {
    this.#databaseUrl = env.SUPERQODE_A2A_DATABASE_URL ?? null;
    this.#redisUrl = env.SUPERQODE_A2A_REDIS_URL ?? null;
    this.#harnessLedgerServed =
      harnessServed(env) && env.SUPERQODE_A2A_HARNESS_STORE_PATH !== ':memory:';
    this.taskStorePath = env.SUPERQODE_A2A_TASK_STORE_ENABLED
      ? env.SUPERQODE_A2A_TASK_STORE_PATH
      : null;
    this.migrate = env.SUPERQODE_A2A_MIGRATE;
    this.leaseMs = env.SUPERQODE_A2A_LEASE_MS;
    // Two heartbeats may be missed (a busy event loop) before the lease runs out.
    this.heartbeatMs = Math.min(env.SUPERQODE_A2A_HEARTBEAT_MS, Math.floor(this.leaseMs / 3));
    this.maxTasks = env.SUPERQODE_A2A_MAX_TASKS;
    this.taskTtlDays = env.SUPERQODE_A2A_TASK_TTL_DAYS;
    this.maxPageSize = env.SUPERQODE_A2A_MAX_PAGE_SIZE;
    this.maxListReplyBytes = env.SUPERQODE_A2A_MAX_LIST_REPLY_BYTES;
  }

  /** PostgreSQL URL of the task store, or null (SQLite, or memory with `--no-task-store`). */
  get taskDatabaseUrl(): string | null {
    return this.taskStorePath === null ? null : this.#databaseUrl;
  }

  /** Redis URL of the rate-limit windows shared by all instances, or null (counted per instance). */
  get redisUrl(): string | null {
    return this.#redisUrl;
  }

  /** PostgreSQL URL of the harness ledger, or null (SQLite, or memory when not served). */
  get harnessDatabaseUrl(): string | null {
    return this.#harnessLedgerServed ? this.#databaseUrl : null;
  }
}

/** `stores`: task store and ledger locations, leases, retention, list caps. */
export const storesConfig = configNamespace('stores', (env) => new StoreSettings(env));
