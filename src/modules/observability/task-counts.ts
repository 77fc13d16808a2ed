import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { TaskWriteFailures } from '../tasks/task-write-failures';
import { TASKS_CONNECTION } from '../tasks/tasks.constants';
import { MetricsService, ScrapedCounts } from './metrics.service';

const BY_STATE_SQL =
  'SELECT "status_state" AS "state", COUNT(*) AS "n" FROM "a2a_tasks" GROUP BY "status_state"';

/**
 * Scrape-time counts of the task store for {@link MetricsService}: tasks by state (one
 * `GROUP BY` over `a2a_tasks`, only when scraped) and failed saves. Looked up lazily, so an app
 * without a durable store (`--no-task-store`) reports no task gauge.
 */
@Injectable()
export class TaskCounts implements ScrapedCounts, OnModuleInit {
  private db: DataSource | undefined;
  private failures: TaskWriteFailures | undefined;

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    this.db = this.optional<DataSource>(getDataSourceToken(TASKS_CONNECTION));
    this.failures = this.optional(TaskWriteFailures);
    this.metrics.useCounts(this);
  }

  async tasksByState(): Promise<Record<string, number> | null> {
    if (!this.db?.isInitialized) return null;
    const rows: { state: string | null; n: number | string }[] = await this.db.query(BY_STATE_SQL);
    return Object.fromEntries(rows.map((r) => [r.state ?? 'none', Number(r.n)]));
  }

  storeWriteErrors(): number {
    return this.failures?.totalRecorded ?? 0;
  }

  private optional<T>(token: unknown): T | undefined {
    try {
      return this.moduleRef.get<T>(token as string, { strict: false });
    } catch {
      return undefined;
    }
  }
}
