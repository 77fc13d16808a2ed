import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Creates the harness ledger: `sessions`, `runs` and `events` (primary key run_id, sequence),
 * plus the indexes of `harness runs [--session]`. Idempotent (`IF NOT EXISTS`).
 * @see harness-ledger.entities.ts, which must describe the same columns and indexes.
 */
export class CreateHarnessLedger1760000000000 implements MigrationInterface {
  readonly name = 'CreateHarnessLedger1760000000000';

  /** Creates the three tables and the run list indexes. */
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "sessions" (' +
        '"id" text PRIMARY KEY NOT NULL, "created_at" text NOT NULL, "spec_name" text NOT NULL, ' +
        '"working_dir" text NOT NULL, "spec" text NOT NULL, "model_selection" text NOT NULL, ' +
        '"metadata" text NOT NULL)',
    );
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "runs" (' +
        '"id" text PRIMARY KEY NOT NULL, ' +
        '"session_id" text NOT NULL REFERENCES "sessions" ("id") ON DELETE CASCADE, ' +
        '"status" text NOT NULL, "provider" text, "model" text, "started_at" text NOT NULL, ' +
        '"ended_at" text, "prompt_preview" text NOT NULL, "error" text)',
    );
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS "IDX_runs_session_started" ON "runs" ("session_id", "started_at")',
    );
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS "IDX_runs_started" ON "runs" ("started_at")',
    );
    await queryRunner.query(
      'CREATE TABLE IF NOT EXISTS "events" (' +
        '"run_id" text NOT NULL REFERENCES "runs" ("id") ON DELETE CASCADE, ' +
        '"sequence" integer NOT NULL, "event_id" text NOT NULL, "type" text NOT NULL, ' +
        '"data" text NOT NULL, "timestamp" text NOT NULL, PRIMARY KEY ("run_id", "sequence"))',
    );
  }

  /** Drops the ledger (every session, run and event is lost). */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE IF EXISTS "events"');
    await queryRunner.query('DROP INDEX IF EXISTS "IDX_runs_started"');
    await queryRunner.query('DROP INDEX IF EXISTS "IDX_runs_session_started"');
    await queryRunner.query('DROP TABLE IF EXISTS "runs"');
    await queryRunner.query('DROP TABLE IF EXISTS "sessions"');
  }
}
