import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Adds `IDX_a2a_tasks_updated` ("updated_at_ms", "id") on SQLite, the index PostgreSQL has had
 * since `CreateA2aTasksPostgres1765000000001`. Retention (`TaskRetention.prune`) deletes the
 * oldest finished rows by last save, `ORDER BY "updated_at_ms", "id" LIMIT n`; without the index
 * every batch of n rows read the whole table, overflow pages of each row's JSON included (a
 * store 100,000 rows over the cap blocked the event loop for seconds per batch), with it a batch
 * reads the oldest index entries and their rows.
 * Building it on an existing store reads the table once, at the first start after the upgrade.
 * @see TaskEntity, which must describe the same indexes.
 */
export class AddTaskRetentionIndex1765000000002 implements MigrationInterface {
  readonly name = 'AddTaskRetentionIndex1765000000002';

  /** Creates the index (idempotent). */
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS "IDX_a2a_tasks_updated" ON "a2a_tasks" ("updated_at_ms", "id")',
    );
  }

  /** Drops the index. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX IF EXISTS "IDX_a2a_tasks_updated"');
  }
}
