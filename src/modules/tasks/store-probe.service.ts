import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../../common/runtime/clock';
import { TaskWriteFailures } from './task-write-failures';
import { TASKS_CONNECTION } from './tasks.constants';
import { sqlFor } from '../../common/database/sql-dialect';

const PROBE_SQL =
  'INSERT INTO "a2a_store_probe" ("id", "probed_at_ms") VALUES (1, ?) ' +
  'ON CONFLICT ("id") DO UPDATE SET "probed_at_ms" = excluded."probed_at_ms"';

/** What the probe found. */
export interface StoreProbeResult {
  /** `SELECT 1` answered. */
  reachable: boolean;
  /** A committed write succeeded and no task write is waiting to be ended FAILED. */
  writable: boolean;
  /** Saves that failed and are not ended yet. */
  failedWrites: number;
  /** SQLite's message when a step failed (never task content). */
  error?: string;
}

/**
 * Writability probe of the task store: reads (`SELECT 1`) and commits a one-row upsert in
 * `a2a_store_probe`, which fails on a read-only file (`SQLITE_READONLY`, `PRAGMA query_only`)
 * and on a full disk once the write reaches the WAL. Concurrent probes share one write.
 */
@Injectable()
export class StoreProbe {
  private inFlight: Promise<StoreProbeResult> | null = null;

  constructor(
    @InjectDataSource(TASKS_CONNECTION) private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly failures: TaskWriteFailures,
  ) {}

  /** Probes now (or joins the probe under way). Never throws. */
  probe(): Promise<StoreProbeResult> {
    this.inFlight ??= this.run().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async run(): Promise<StoreProbeResult> {
    const failedWrites = this.failures.size;
    try {
      await this.db.query('SELECT 1');
    } catch (error) {
      return { reachable: false, writable: false, failedWrites, error: (error as Error).message };
    }
    try {
      await this.db.query(sqlFor(this.db, PROBE_SQL), [this.clock.now().getTime()]);
    } catch (error) {
      return { reachable: true, writable: false, failedWrites, error: (error as Error).message };
    }
    return { reachable: true, writable: failedWrites === 0, failedWrites };
  }
}
