import { Brackets } from 'typeorm';
import type { EntityManager } from 'typeorm';
import type { HarnessEventEntity } from './harness-ledger.entities';
import { isPostgres, querySql } from '../../../common/database/sql-dialect';

/**
 * Appends an event at the run's next sequence, allocated by the database in the same statement
 * (a write from its first step, so SQLite holds the write lock while reading the maximum): no
 * interleaving of writers (two processes, a reconciler beside a live run) can collide.
 * PostgreSQL reads the maximum from the statement's snapshot, so the transaction first locks the
 * run's row ({@link LOCK_RUN_SQL}); the insert, a later statement, then sees every committed event.
 */
const APPEND_EVENT_SQL =
  'INSERT INTO "events" ("run_id", "sequence", "event_id", "type", "data", "timestamp") ' +
  'SELECT ?, COALESCE(MAX("sequence"), 0) + 1, ?, ?, ?, ? FROM "events" WHERE "run_id" = ? ' +
  'RETURNING "sequence"';

/** Serialises appends to one run on PostgreSQL (READ COMMITTED: a new snapshot per statement). */
const LOCK_RUN_SQL = 'SELECT 1 FROM "runs" WHERE "id" = ? FOR UPDATE';

/**
 * Inserts an event row at its run's next sequence (the row's own `sequence` is ignored). Call
 * inside a transaction (the ledger's writes are).
 * @returns The allocated sequence.
 * @throws {Error} The database failed.
 */
export async function insertEvent(m: EntityManager, row: HarnessEventEntity): Promise<number> {
  const params = [row.runId, row.eventId, row.type, row.data, row.timestamp, row.runId];
  if (isPostgres(m)) await querySql(m, LOCK_RUN_SQL, [row.runId]);
  const [inserted] = await querySql<{ sequence: number }[]>(m, APPEND_EVENT_SQL, params);
  return Number(inserted.sequence);
}

/**
 * `lease_renewed_at_ms` is null (never leased) or before `cutoffMs`, or `lease_owner` is
 * `owner` (`exact`) or matches the `LIKE` pattern `owner`.
 */
export function leaseExpired(
  alias: string | null,
  cutoffMs: number,
  owner?: string,
  exact = false,
): Brackets {
  const renewed = alias ? `${alias}.leaseRenewedAtMs` : 'lease_renewed_at_ms';
  const leaseOwner = alias ? `${alias}.leaseOwner` : 'lease_owner';
  return new Brackets((q) => {
    q.where(`${renewed} IS NULL`).orWhere(`${renewed} < :cutoffMs`, { cutoffMs });
    if (owner !== undefined) {
      q.orWhere(exact ? `${leaseOwner} = :owner` : `${leaseOwner} LIKE :owner ESCAPE '\\'`, {
        owner,
      });
    }
  });
}
