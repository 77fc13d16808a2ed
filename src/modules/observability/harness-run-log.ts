import { Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import type { HarnessEvent } from '../harness/protocol/harness-events';
import { MetricsService } from './metrics.service';

/** How a run segment ended: the `outcome` label and the log line's `status`. */
export type HarnessRunOutcome =
  'completed' | 'needs_approval' | 'max_iterations' | 'failed' | 'cancelled';

/** The run lines of one A2A turn of the harness skill (see {@link HarnessRunLog.trace}). */
export class HarnessRunTrace {
  private runId: string | undefined;
  private startedMs = 0;
  private filesChanged = 0;

  constructor(
    private readonly logger: Logger,
    private readonly metrics: MetricsService,
    private readonly ids: { taskId: string; contextId: string },
  ) {}

  /** A turn that resumes run `runId` after an approval (no `run.started`): logs its restart. */
  resumed(runId: string): void {
    this.runId = runId;
    this.startedMs = performance.now();
    this.logger.log({ msg: 'harness run resumed', runId, ...this.ids });
  }

  /** Observes one Harness Protocol event; logs at `run.started` and at the segment's end. */
  on(event: HarnessEvent): void {
    switch (event.type) {
      case 'run.started':
        this.runId = event.run_id;
        this.startedMs = performance.now();
        this.logger.log({ msg: 'harness run started', runId: event.run_id, ...this.ids });
        return;
      case 'artifact.created':
        this.filesChanged = event.data.paths.length;
        return;
      case 'run.completed':
        return this.end(
          event.data.stop_reason === 'max_iterations'
            ? 'max_iterations'
            : event.data.status === 'needs_approval'
              ? 'needs_approval'
              : 'completed',
        );
      case 'run.failed':
        return this.end('failed', event.data.code);
      case 'run.cancelled':
        return this.end('cancelled');
      default:
        return;
    }
  }

  private end(status: HarnessRunOutcome, code?: string): void {
    const durationMs = this.runId ? Math.round(performance.now() - this.startedMs) : 0;
    this.metrics.harnessRuns.labels(status).inc();
    this.metrics.harnessRunDuration.labels(status).observe(durationMs / 1000);
    this.logger.log({
      msg: 'harness run ended',
      runId: this.runId ?? 'unknown',
      ...this.ids,
      status,
      ...(code ? { code } : {}),
      filesChanged: this.filesChanged,
      durationMs,
    });
  }
}

/**
 * One log line when a harness run starts and one when its segment ends (`runId`, `taskId`,
 * `contextId`, `status`, `filesChanged`, `durationMs`), and the `superqode_a2a_harness_runs_total` metrics.
 * Never the prompt, the answer or tool output.
 */
@Injectable()
export class HarnessRunLog {
  private readonly logger = new Logger('harness');

  constructor(private readonly metrics: MetricsService) {}

  /** A trace for one turn of task `task` in context `context`. */
  trace(task: string, context: string): HarnessRunTrace {
    return new HarnessRunTrace(this.logger, this.metrics, { taskId: task, contextId: context });
  }
}
