import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Adds task ownership: `lease_owner` (process instance id of the server running the task) and
 * `lease_renewed_at_ms` (its last heartbeat, epoch ms), plus a partial index over leased rows
 * only (terminal and INPUT_REQUIRED rows carry no lease, so the index stays small).
 * Existing rows get NULL: an unfinished task from before this migration has no live owner.
 * Also creates `a2a_store_probe`, the one-row table the writability probe (`/health`) writes.
 * @see TaskEntity, which must describe the same columns.
 */
export class AddTaskLeases1765000000000 implements MigrationInterface {
  readonly name = 'AddTaskLeases1765000000000';

  /** Adds the two columns and the lease index. */
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "a2a_tasks" ADD COLUMN "lease_owner" text');
    await queryRunner.query('ALTER TABLE "a2a_tasks" ADD COLUMN "lease_renewed_at_ms" integer');
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS "IDX_a2a_tasks_lease" ON "a2a_tasks" ("lease_owner") ' +
        'WHERE "lease_owner" IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "a2a_store_probe" ' +
        '("id" integer PRIMARY KEY NOT NULL, "probed_at_ms" integer NOT NULL)',
    );
  }

  /** Drops the index and the columns (SQLite ≥ 3.35 `DROP COLUMN`). */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS "a2a_store_probe"');
    await queryRunner.query('DROP INDEX IF EXISTS "IDX_a2a_tasks_lease"');
    await queryRunner.query('ALTER TABLE "a2a_tasks" DROP COLUMN "lease_renewed_at_ms"');
    await queryRunner.query('ALTER TABLE "a2a_tasks" DROP COLUMN "lease_owner"');
  }
}
