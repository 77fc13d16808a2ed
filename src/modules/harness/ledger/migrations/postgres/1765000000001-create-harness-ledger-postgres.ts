import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The harness ledger's schema on PostgreSQL (issue #15), as SQLite has it after
 * `CreateHarnessLedger1760000000000` and `AddRunLeases1765000000000`: `sessions`, `runs` (with
 * ownership-lease columns) and `events` (primary key run_id, sequence). `runs."row_seq"` is an
 * identity column standing in for SQLite's `rowid` (the insertion order `harness runs` breaks
 * start-time ties with). Run by `superqode db migrate` or `serve --migrate`.
 * @see harness-ledger.entities.ts, which must name the same columns.
 */
export class CreateHarnessLedgerPostgres1765000000001 implements MigrationInterface {
  readonly name = 'CreateHarnessLedgerPostgres1765000000001';

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
        '"ended_at" text, "prompt_preview" text NOT NULL, "error" text, ' +
        '"lease_owner" text, "lease_renewed_at_ms" bigint, ' +
        '"row_seq" bigint GENERATED ALWAYS AS IDENTITY)',
    );
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS "IDX_runs_session_started" ON "runs" ("session_id", "started_at")',
    );
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS "IDX_runs_started" ON "runs" ("started_at")',
    );
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS "IDX_runs_lease" ON "runs" ("lease_owner") WHERE "status" = \'running\'',
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
    await queryRunner.query('DROP TABLE IF EXISTS "runs"');
    await queryRunner.query('DROP TABLE IF EXISTS "sessions"');
  }
}
