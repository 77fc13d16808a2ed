import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Seconds buckets of the request latency histogram (1 ms to 30 s; streams land in the top ones). */
const LATENCY_BUCKETS_S = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/** Seconds buckets of harness run durations (1 s to 30 min). */
const RUN_BUCKETS_S = [1, 5, 15, 30, 60, 120, 300, 600, 1800];

/** Counts read when scraped (tasks by state, store write failures). */
export interface ScrapedCounts {
  /** Stored tasks per A2A state name (`TASK_STATE_COMPLETED`), or null when not durable. */
  tasksByState(): Promise<Record<string, number> | null>;
  /** Task saves that failed since the start. */
  storeWriteErrors(): number;
}

/**
 * The Prometheus metrics of one server (one registry per app, so several apps in a process
 * never share counters). Names follow Prometheus conventions (`_total`, `_seconds`, base units)
 * under the `superqode_a2a_` prefix; `docs/grafana-dashboard.json` charts them.
 * @see https://prometheus.io/docs/practices/naming/
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  /** `binding`: jsonrpc, jsonrpc-0.3, rest, card, health, metrics, root, other. */
  readonly requests = new Counter({
    name: 'superqode_a2a_http_requests_total',
    help: 'HTTP requests answered, by binding, method and status code.',
    labelNames: ['binding', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'superqode_a2a_http_request_duration_seconds',
    help: 'Time from the request head to the end of the response (streams included), seconds.',
    labelNames: ['binding', 'method'] as const,
    buckets: LATENCY_BUCKETS_S,
    registers: [this.registry],
  });
  /** `reason`: 401 unauthenticated, 403 forbidden. */
  readonly authRejections = new Counter({
    name: 'superqode_a2a_auth_rejections_total',
    help: 'Requests refused by authentication (401) or authorisation (403).',
    labelNames: ['binding', 'status'] as const,
    registers: [this.registry],
  });
  readonly rateLimitRejections = new Counter({
    name: 'superqode_a2a_rate_limit_rejections_total',
    help: 'Requests refused by a rate limit (429).',
    labelNames: ['binding'] as const,
    registers: [this.registry],
  });
  /** `outcome`: completed, needs_approval, max_iterations, failed, cancelled. */
  readonly harnessRuns = new Counter({
    name: 'superqode_a2a_harness_runs_total',
    help: 'Harness run segments ended, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly harnessRunDuration = new Histogram({
    name: 'superqode_a2a_harness_run_duration_seconds',
    help: 'Wall time of a harness run segment, seconds.',
    labelNames: ['outcome'] as const,
    buckets: RUN_BUCKETS_S,
    registers: [this.registry],
  });
  private counts: ScrapedCounts | undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'superqode_a2a_' });
    const counts = (): ScrapedCounts | undefined => this.counts;
    new Gauge({
      name: 'superqode_a2a_tasks',
      help: 'Tasks in the durable store, by state (read at scrape time).',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const byState = await counts()?.tasksByState();
        for (const [state, n] of Object.entries(byState ?? {})) this.set({ state }, n);
      },
    });
    new Counter({
      name: 'superqode_a2a_store_write_errors_total',
      help: 'Task saves the store refused (read-only, full disk, busy past the timeout).',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(counts()?.storeWriteErrors() ?? 0);
      },
    });
  }

  /** Where the scrape-time counts come from (the task store module sets it). */
  useCounts(counts: ScrapedCounts): void {
    this.counts = counts;
  }

  /** The exposition text (`text/plain; version=0.0.4`) and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
