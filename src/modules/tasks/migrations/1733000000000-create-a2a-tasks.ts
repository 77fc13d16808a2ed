import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Creates `a2a_tasks` and the indexes that make every list query an index range scan.
 * Idempotent (`IF NOT EXISTS`), so it also adopts a table created before the ledger existed.
 * @see TaskEntity, which must describe the same columns and indexes.
 */
export class CreateA2aTasks1733000000000 implements MigrationInterface {
  readonly name = 'CreateA2aTasks1733000000000';

  /** Creates the table and its three list indexes. */
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE IF NOT EXISTS "a2a_tasks" (` +
        `"tenant" text NOT NULL, "owner" text NOT NULL, "id" text NOT NULL, ` +
        `"context_id" text NOT NULL, "status_state" text, ` +
        `"status_timestamp_ms" integer NOT NULL, ` +
        `"status" text, "artifacts" text, "history" text, "metadata" text, ` +
        `"protocol_version" text NOT NULL, "created_at_ms" integer NOT NULL, ` +
        `"updated_at_ms" integer NOT NULL, PRIMARY KEY ("tenant", "owner", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "IDX_a2a_tasks_scope_ts" ` +
        `ON "a2a_tasks" ("tenant", "owner", "status_timestamp_ms", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "IDX_a2a_tasks_context_ts" ` +
        `ON "a2a_tasks" ("tenant", "owner", "context_id", "status_timestamp_ms", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS "IDX_a2a_tasks_state_ts" ` +
        `ON "a2a_tasks" ("tenant", "owner", "status_state", "status_timestamp_ms", "id")`,
    );
  }

  /** Drops the table and its indexes (all stored tasks are lost). */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS "IDX_a2a_tasks_state_ts"`);
    await queryRunner.query(`DROP INDEX IF EXISTS "IDX_a2a_tasks_context_ts"`);
    await queryRunner.query(`DROP INDEX IF EXISTS "IDX_a2a_tasks_scope_ts"`);
    await queryRunner.query(`DROP TABLE IF EXISTS "a2a_tasks"`);
  }
}
