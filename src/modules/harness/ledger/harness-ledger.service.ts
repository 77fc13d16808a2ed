import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import type { EntityManager } from 'typeorm';
import { Clock, IdGenerator } from '../../../common/runtime/clock';
import {
  ProcessInstance,
  ownerIsGone,
  thisHostOwners,
} from '../../../common/runtime/process-instance';
import { HARNESS_CONNECTION } from '../harness.constants';
import type { HarnessEvent, HarnessEventType, HarnessRunStatus } from '../protocol/harness-events';
import {
  HarnessRunNotFoundError,
  HarnessSessionNotFoundError,
} from '../protocol/harness-protocol.errors';
import type {
  HarnessRunDetail,
  HarnessRunRecord,
  HarnessSessionExport,
  HarnessSessionRecord,
} from '../protocol/harness-records';
import type { HarnessModelSelection } from '../providers/model-selection';
import {
  HarnessEventEntity,
  HarnessRunEntity,
  HarnessSessionEntity,
} from './harness-ledger.entities';
import * as map from './harness-ledger.mapping';
import { insertEvent, leaseExpired } from './harness-ledger.sql';
import { isPostgres, querySql } from '../../../common/database/sql-dialect';

const LIST_RUNS_SQL =
  'SELECT "id", "session_id" AS "sessionId", "status", "provider", "model", ' +
  '"started_at" AS "startedAt", "ended_at" AS "endedAt", "prompt_preview" AS "promptPreview", ' +
  '"error" FROM "runs"';

/** What a new session stores. */
export interface NewHarnessSession {
  specName: string;
  /** Absolute path. */
  workingDir: string;
  /** The validated spec, as JSON. */
  spec: unknown;
  modelSelection: HarnessModelSelection;
  metadata: Record<string, unknown>;
  /** Chosen id; a new random id when absent. */
  id?: string;
}

/** A session with what its runs need: the spec (JSON) and the default model choice. */
export interface StoredHarnessSession {
  record: HarnessSessionRecord;
  spec: unknown;
  modelSelection: HarnessModelSelection;
}

/** Filters of {@link HarnessLedgerService.listRuns}. */
export interface ListHarnessRunsQuery {
  sessionId?: string;
  status?: HarnessRunStatus;
}

/**
 * The harness ledger: sessions, runs and their events in SQLite, the truth after a crash.
 * Every event is written (one transaction with its run's status change) before anyone sees it;
 * writes are serialised because the data source has one connection.
 */
@Injectable()
export class HarnessLedgerService {
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    @InjectDataSource(HARNESS_CONNECTION) private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly instance: ProcessInstance,
  ) {}

  /** Stores a new session (random id, created now). @throws {Error} SQLite failed. */
  async createSession(input: NewHarnessSession): Promise<HarnessSessionRecord> {
    const row = Object.assign(new HarnessSessionEntity(), {
      id: input.id ?? this.ids.next(),
      createdAt: this.clock.isoNow(),
      specName: input.specName,
      workingDir: input.workingDir,
      spec: JSON.stringify(input.spec),
      modelSelection: JSON.stringify(input.modelSelection),
      metadata: JSON.stringify(input.metadata),
    });
    await this.write((m) => m.insert(HarnessSessionEntity, row));
    return map.toSessionRecord(row);
  }

  /**
   * An id this ledger could hold: PostgreSQL `text` cannot store U+0000 (SQLite can), so on
   * PostgreSQL a lookup of an id with it finds nothing, as the task store refuses such keys,
   * instead of failing in the driver (an internal error).
   */
  private storable(id: string): boolean {
    return !(id.includes('\u0000') && isPostgres(this.dataSource));
  }

  /** A session with its spec. @throws {HarnessSessionNotFoundError} Unknown id. */
  async getSession(sessionId: string): Promise<StoredHarnessSession> {
    if (!this.storable(sessionId)) throw new HarnessSessionNotFoundError(sessionId);
    const row = await this.dataSource.manager.findOneBy(HarnessSessionEntity, { id: sessionId });
    if (!row) throw new HarnessSessionNotFoundError(sessionId);
    return {
      record: map.toSessionRecord(row),
      spec: map.parseJson<unknown>(row.spec, null),
      modelSelection: map.parseJson<HarnessModelSelection>(row.modelSelection, {}),
    };
  }

  /**
   * Records one event: `run.started` creates the run row (leased to this process), terminal
   * events and approval decisions update its status, all in the same transaction as the event
   * row. The event's `sequence` is only a hint: the ledger allocates the next one.
   * @returns The event as recorded (with its allocated sequence).
   * @throws {Error} SQLite failed.
   */
  async append(event: HarnessEvent): Promise<HarnessEvent> {
    let sequence = event.sequence;
    await this.write(async (m) => {
      const lease = { leaseOwner: this.instance.id, leaseRenewedAtMs: this.clock.now().getTime() };
      if (event.type === 'run.started') {
        await m.insert(HarnessRunEntity, { ...map.runRowFrom(event), ...lease });
      }
      sequence = await insertEvent(m, map.toEventRow(event));
      const update = map.runUpdateFor(event);
      if (update?.status === 'running') Object.assign(update, lease);
      if (update) await m.update(HarnessRunEntity, { id: event.run_id }, update);
    });
    return { ...event, sequence };
  }

  /**
   * Heartbeat: renews the lease of every run this process executes (one UPDATE).
   * @param nowMs - Renewal time, epoch ms.
   */
  async renewRunLeases(nowMs: number): Promise<void> {
    await this.write((m) =>
      m.update(
        HarnessRunEntity,
        { leaseOwner: this.instance.id, status: 'running' },
        { leaseRenewedAtMs: nowMs },
      ),
    );
  }

  /**
   * Runs left `running` whose owner stopped renewing: lease renewed before `cutoffMs` (epoch
   * ms), never leased (recorded before leases existed), or owned by a gone process of this host.
   */
  async orphanedRuns(cutoffMs: number): Promise<{ id: string; owner: string | null }[]> {
    const rows = await this.dataSource.manager
      .createQueryBuilder(HarnessRunEntity, 'r')
      .select(['r.id', 'r.leaseOwner', 'r.leaseRenewedAtMs'])
      .where('r.status = :status', { status: 'running' })
      .andWhere(leaseExpired('r', cutoffMs, thisHostOwners()))
      .getMany();
    return rows
      .filter(
        (r) =>
          r.leaseRenewedAtMs === null || r.leaseRenewedAtMs < cutoffMs || ownerIsGone(r.leaseOwner),
      )
      .map((r) => ({ id: r.id, owner: r.leaseOwner }));
  }

  /** One run. @throws {HarnessRunNotFoundError} Unknown id. */
  async getRun(runId: string): Promise<HarnessRunRecord> {
    if (!this.storable(runId)) throw new HarnessRunNotFoundError(runId);
    const row = await this.dataSource.manager.findOneBy(HarnessRunEntity, { id: runId });
    if (!row) throw new HarnessRunNotFoundError(runId);
    return map.toRunRecord(row);
  }

  /** Highest sequence recorded for a run; 0 when it has no events. */
  async lastSequence(runId: string): Promise<number> {
    const rows: { last: number | null }[] = await querySql(
      this.dataSource,
      'SELECT MAX("sequence") AS "last" FROM "events" WHERE "run_id" = ?',
      [runId],
    );
    return rows[0]?.last ?? 0;
  }

  /** Runs newest first (start time, then insertion order), optionally of one session or status. */
  async listRuns(query: ListHarnessRunsQuery = {}): Promise<HarnessRunRecord[]> {
    if (query.sessionId !== undefined && !this.storable(query.sessionId)) return [];
    const filters = [
      ['"session_id" = ?', query.sessionId],
      ['"status" = ?', query.status],
    ].filter((f): f is [string, string] => Boolean(f[1]));
    const where = filters.map(([sql]) => sql);
    const params = filters.map(([, value]) => value);
    // Ties on start time in insertion order: SQLite's rowid, PostgreSQL's identity `row_seq`.
    const inserted = isPostgres(this.dataSource) ? '"row_seq"' : 'rowid';
    const rows: HarnessRunEntity[] = await querySql(
      this.dataSource,
      `${LIST_RUNS_SQL} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ` +
        `ORDER BY "started_at" DESC, ${inserted} DESC`,
      params,
    );
    return rows.map(map.toRunRecord);
  }

  /**
   * Events of a session's runs, oldest run first, each in sequence order.
   * @param types - Only these types (e.g. without `message.delta` to rebuild a conversation).
   */
  async sessionEvents(sessionId: string, types?: HarnessEventType[]): Promise<HarnessEvent[]> {
    const runs = (await this.listRuns({ sessionId })).reverse();
    const events: HarnessEvent[] = [];
    for (const run of runs) events.push(...(await this.runEvents(run.id, sessionId, types)));
    return events;
  }

  /** A run and its events. @throws {HarnessRunNotFoundError} Unknown id. */
  async showRun(runId: string): Promise<HarnessRunDetail> {
    const run = await this.getRun(runId);
    return { run, events: await this.runEvents(run.id, run.session_id) };
  }

  /** A session, its runs (oldest first) and their events. @throws {HarnessSessionNotFoundError} */
  async exportSession(sessionId: string): Promise<HarnessSessionExport> {
    const { record } = await this.getSession(sessionId);
    const runs = (await this.listRuns({ sessionId })).reverse();
    const details: HarnessRunDetail[] = [];
    for (const run of runs) details.push({ run, events: await this.runEvents(run.id, sessionId) });
    return { session: record, runs: details };
  }

  /**
   * Ends a run left `running` by a process that died: appends `run.failed` (code
   * `interrupted`) after its last event. The status change and the check are one conditional
   * UPDATE, so a live owner's run (lease renewed at or after `cutoffMs`) is never touched.
   * @param cutoffMs - Leases renewed before this epoch ms are expired; omit to end the run
   *   whatever its lease. A run of a gone process of this host ({@link ownerIsGone}) is ended
   *   whatever its lease too.
   * @returns The appended event; null when the run ended, is paused, or is still leased.
   * @throws {HarnessRunNotFoundError} Unknown id.
   */
  async markInterrupted(
    runId: string,
    message: string,
    cutoffMs?: number,
  ): Promise<HarnessEvent | null> {
    const run = await this.dataSource.manager.findOneBy(HarnessRunEntity, { id: runId });
    if (!run) throw new HarnessRunNotFoundError(runId);
    const event: HarnessEvent = {
      event_id: this.ids.next(),
      session_id: run.sessionId,
      run_id: runId,
      sequence: 0,
      timestamp: this.clock.isoNow(),
      type: 'run.failed',
      data: { code: 'interrupted', message },
    };
    let ended = false;
    await this.write(async (m) => {
      const query = m
        .createQueryBuilder()
        .update(HarnessRunEntity)
        .set({ status: 'failed', endedAt: event.timestamp, error: message })
        .where('id = :id AND status = :status', { id: runId, status: 'running' });
      if (cutoffMs !== undefined) {
        const gone = run.leaseOwner && ownerIsGone(run.leaseOwner) ? run.leaseOwner : undefined;
        query.andWhere(leaseExpired(null, cutoffMs, gone, true));
      }
      ended = ((await query.execute()).affected ?? 0) > 0;
      if (!ended) return;
      event.sequence = await insertEvent(m, map.toEventRow(event));
    });
    return ended ? event : null;
  }

  /** Events of one run in sequence order (rows of unknown types skipped). */
  private async runEvents(
    runId: string,
    sessionId: string,
    types?: HarnessEventType[],
  ): Promise<HarnessEvent[]> {
    const rows = await this.dataSource.manager.find(HarnessEventEntity, {
      where: types ? { runId, type: In(types) } : { runId },
      order: { sequence: 'ASC' },
    });
    return rows.flatMap((row) => map.toEvent(row, sessionId) ?? []);
  }

  /** Runs `work` in a transaction, after every earlier write (one connection: no interleaving). */
  private write(work: (manager: EntityManager) => Promise<unknown>): Promise<void> {
    const next = this.writes.then(() => this.dataSource.transaction((m) => work(m)));
    this.writes = next.catch(() => undefined);
    return next.then(() => undefined);
  }
}
