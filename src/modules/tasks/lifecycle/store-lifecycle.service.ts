import {
  BeforeApplicationShutdown,
  OnApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { ConfigType } from '@nestjs/config';
import { storesConfig } from '../../../config/namespaces';
import { describeStore } from '../../../common/database/database-url';
import { PendingTaskWrites } from '../pending-task-writes';
import { TasksService } from '../tasks.service';
import { HarnessRunReconciler } from './harness-run-reconciler.service';
import { StoreHeartbeat } from './store-heartbeat.service';
import { TaskRetention } from './task-retention.service';

/** Token of the jobs bundle {@link StoreLifecycle} schedules (keeps its constructor small). */
export const STORE_JOBS = Symbol('STORE_JOBS');

/** What {@link StoreLifecycle} schedules besides the heartbeat. */
export interface StoreJobs {
  /** This process's owner id (released at shutdown). */
  ownerId: string;
  tasks: TasksService;
  runs: HarnessRunReconciler;
  retention: TaskRetention;
}

/** Longest a graceful stop waits for the protocol core's pending task writes, ms. */
const SHUTDOWN_WRITES_GRACE_MS = 5_000;

/** Period of background pruning, ms. */
export const PRUNE_INTERVAL_MS = 60_000;

/** One periodic job: never overlaps itself, logs instead of throwing. */
class Periodic {
  private timer?: NodeJS.Timeout;
  private running: Promise<void> | null = null;

  constructor(
    private readonly name: string,
    private readonly job: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  /** Runs now, then every `periodMs` (the timer does not keep the process alive). */
  start(periodMs: number): Promise<void> {
    this.timer = setInterval(() => void this.tick(), periodMs).unref();
    return this.tick();
  }

  /** Stops the timer and waits for a run under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private tick(): Promise<void> {
    this.running ??= this.job()
      .then(
        () => undefined,
        (error: Error) => this.logger.warn(`${this.name} failed: ${error.message}`),
      )
      .finally(() => (this.running = null));
    return this.running;
  }
}

/**
 * The server's store lifecycle (server only: registered once the HTTP server listens, so a
 * server that fails to bind, a plain application context or a CLI command never runs it).
 * After listen: probes writability (a warning when the store refuses writes), then runs the
 * heartbeat every `heartbeatMs`, reconciliation of orphaned tasks and runs every `leaseMs`,
 * and retention every {@link PRUNE_INTERVAL_MS}. Stopped before the stores close.
 */
@Injectable()
export class StoreLifecycle
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger(StoreLifecycle.name);
  private readonly jobs: { job: Periodic; periodMs: number }[];
  private started = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(storesConfig.KEY) private readonly config: ConfigType<typeof storesConfig>,
    heartbeat: StoreHeartbeat,
    @Inject(STORE_JOBS) private readonly reconcilers: StoreJobs,
    private readonly pending: PendingTaskWrites,
  ) {
    const { heartbeatMs, leaseMs } = config;
    const reconcile = async () => {
      await reconcilers.tasks.failOrphaned();
      await reconcilers.runs.reconcile();
    };
    this.jobs = [
      { job: new Periodic('Reconciliation', reconcile, this.logger), periodMs: leaseMs },
      {
        job: new Periodic('Heartbeat', () => heartbeat.beat(), this.logger),
        periodMs: heartbeatMs,
      },
      {
        job: new Periodic('Retention', () => reconcilers.retention.prune(), this.logger),
        periodMs: PRUNE_INTERVAL_MS,
      },
    ];
  }

  onApplicationBootstrap(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onListen', async () => {
      await this.start();
    });
  }

  /**
   * Stops the jobs, then fails this process's own unfinished tasks at once (they cannot outlive
   * it), so other servers and the next start need not wait for the lease. Its ledger runs are
   * ended by the harness adapter's own shutdown (`run.cancelled`); any it leaves running
   * expire with the lease.
   */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.jobs.map(({ job }) => job.stop()));
  }

  /**
   * After every `beforeApplicationShutdown` (where the harness skill cancels its running turns and
   * waits for their CANCELED state), before the stores close (this module is shallower than the
   * TypeORM modules): what is still unfinished is failed here.
   */
  async onApplicationShutdown(): Promise<void> {
    if (!this.started) return;
    // The protocol core writes those CANCELED states from the event (issue #14): let them land.
    await this.pending.settle(SHUTDOWN_WRITES_GRACE_MS);
    const { ownerId, tasks } = this.reconcilers;
    await tasks
      .release(ownerId)
      .catch((e: Error) => this.logger.warn(`Releasing tasks failed: ${e.message}`));
  }

  private async start(): Promise<void> {
    this.started = true;
    const probe = await this.reconcilers.tasks.health();
    if (!probe.writable) {
      this.logger.warn(
        `Task store ${describeStore(this.config.taskDatabaseUrl, this.config.taskStorePath)} refuses writes (${probe.error ?? 'failed saves pending'}): ` +
          'serving degraded; /health answers 503 and new tasks fail until it accepts writes again.',
      );
    }
    for (const { job, periodMs } of this.jobs) await job.start(periodMs);
  }
}
