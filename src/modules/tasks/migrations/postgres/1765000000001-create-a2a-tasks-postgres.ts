import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The task store's schema on PostgreSQL (issue #15), as SQLite has it after
 * `CreateA2aTasks1733000000000` and `AddTaskLeases1765000000000`: `a2a_tasks` with its list
 * indexes and ownership-lease columns (partial lease index), and `a2a_store_probe`.
 * Epoch-ms columns are `bigint` (SQLite's `integer` is 64-bit; PostgreSQL's is 32-bit).
 * Run by `superqode db migrate` or `serve --migrate`, never at an ordinary start.
 * @see TaskEntity, which must name the same columns.
 */
export class CreateA2aTasksPostgres1765000000001 implements MigrationInterface {
  readonly name = 'CreateA2aTasksPostgres1765000000001';

  /** Creates the tables and indexes. */
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "a2a_tasks" (' +
        '"tenant" text NOT NULL, "owner" text NOT NULL, "id" text NOT NULL, ' +
        '"context_id" text NOT NULL, "status_state" text, "status_timestamp_ms" bigint NOT NULL, ' +
        '"status" text, "artifacts" text, "history" text, "metadata" text, ' +
        '"protocol_version" text NOT NULL, "created_at_ms" bigint NOT NULL, ' +
        '"updated_at_ms" bigint NOT NULL, "lease_owner" text, "lease_renewed_at_ms" bigint, ' +
        'PRIMARY KEY ("tenant", "owner", "id"))',
    );
    const indexes = [
      '"IDX_a2a_tasks_scope_ts" ON "a2a_tasks" ("tenant", "owner", "status_timestamp_ms", "id")',
      '"IDX_a2a_tasks_context_ts" ON "a2a_tasks" ("tenant", "owner", "context_id", "status_timestamp_ms", "id")',
      '"IDX_a2a_tasks_state_ts" ON "a2a_tasks" ("tenant", "owner", "status_state", "status_timestamp_ms", "id")',
      '"IDX_a2a_tasks_lease" ON "a2a_tasks" ("lease_owner") WHERE "lease_owner" IS NOT NULL',
      // Retention deletes the oldest finished rows by last save.
      '"IDX_a2a_tasks_updated" ON "a2a_tasks" ("updated_at_ms", "id")',
    ];
    for (const index of indexes) await queryRunner.query(`CREATE INDEX IF NOT EXISTS ${index}`);
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "a2a_store_probe" ' +
        '("id" integer PRIMARY KEY NOT NULL, "probed_at_ms" bigint NOT NULL)',
    );
  }

  /** Drops both tables (every stored task is lost). */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS "a2a_store_probe"');
    await queryRunner.query('DROP TABLE IF EXISTS "a2a_tasks"');
  }
}
