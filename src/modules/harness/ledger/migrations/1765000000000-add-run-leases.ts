import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Adds run ownership to `runs`: `lease_owner` (process instance id of the process executing
 * the run) and `lease_renewed_at_ms` (its last heartbeat, epoch ms). Existing rows get NULL:
 * a run left `running` before this migration has no live owner.
 * @see HarnessRunEntity, which must describe the same columns.
 */
export class AddRunLeases1765000000000 implements MigrationInterface {
  readonly name = 'AddRunLeases1765000000000';

  /** Adds the two columns. */
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "runs" ADD COLUMN "lease_owner" text');
    await queryRunner.query('ALTER TABLE "runs" ADD COLUMN "lease_renewed_at_ms" integer');
  }

  /** Drops the columns (SQLite ≥ 3.35 `DROP COLUMN`). */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "runs" DROP COLUMN "lease_renewed_at_ms"');
    await queryRunner.query('ALTER TABLE "runs" DROP COLUMN "lease_owner"');
  }
}
