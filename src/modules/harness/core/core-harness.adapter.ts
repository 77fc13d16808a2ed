import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Clock, IdGenerator } from '../../../common/runtime/clock';
import { HarnessLedgerService } from '../ledger/harness-ledger.service';
import type { StoredHarnessSession } from '../ledger/harness-ledger.service';
import type { HarnessApprovalDecision, HarnessEvent } from '../protocol/harness-events';
import { HarnessProtocolController } from '../protocol/harness-protocol';
import type {
  CreateHarnessSessionOptions,
  HarnessAdapterDescriptor,
  HarnessResumeOptions,
  HarnessSendOptions,
} from '../protocol/harness-protocol';
import {
  HarnessRunNotResumableError,
  HarnessSessionBusyError,
} from '../protocol/harness-protocol.errors';
import type { HarnessSessionExport, HarnessSessionRecord } from '../protocol/harness-records';
import type { HarnessModelSelection } from '../providers/model-selection';
import { HarnessSpecError, HarnessSpecErrorCode } from '../spec/harness-spec.errors';
import { harnessSpecSchema } from '../spec/harness-spec.schema';
import type { HarnessSpec } from '../spec/harness-spec.schema';
import { CoreRunLoop } from './core-run-loop';
import type { RunSegmentInput } from './core-run-loop';
import { EventChannel } from './event-channel';
import { RunAbort } from './run-outcome';
import { RunRecorder } from './run-recorder';
import { SecretScrubber } from './secret-scrubber';

/** A run segment in progress in this process. */
interface ActiveRun {
  sessionId: string;
  controller: AbortController;
  /** Settles when the segment recorded its terminal event (or failed to). */
  done: Promise<void>;
  /** Settles `done` and unregisters the run. */
  release: () => void;
}

/** Descriptor of the built-in adapter: every capability. */
export const CORE_ADAPTER_DESCRIPTOR: HarnessAdapterDescriptor = {
  id: 'core',
  name: 'SuperQode Core harness (HarnessSpec run loop on the Vercel AI SDK)',
  capabilities: {
    streaming: true,
    resume: true,
    cancel: true,
    approvals: true,
    tools: true,
    usage: true,
  },
};

/** A validated spec from a caller or the ledger. @throws {HarnessSpecError} Invalid. */
function validSpec(raw: unknown, source: string): HarnessSpec {
  const parsed = harnessSpecSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (i) => `${source}: ${i.path.join('.') || '(root)'}: ${i.message}`,
  );
  throw new HarnessSpecError(HarnessSpecErrorCode.Invalid, problems);
}

/** `base` with the fields `over` defines. */
function mergeSelection(
  base: HarnessModelSelection,
  over: HarnessModelSelection = {},
): HarnessModelSelection {
  const defined = Object.entries(over).filter(([, v]) => v !== undefined && v !== '');
  return { ...base, ...Object.fromEntries(defined) };
}

/**
 * The built-in harness adapter: runs a HarnessSpec with {@link CoreRunLoop}, records every
 * event in the ledger before streaming it. One run at a time per session; runs of different
 * sessions go in parallel. At shutdown, runs in progress are cancelled and recorded.
 */
@Injectable()
export class CoreHarnessAdapter
  extends HarnessProtocolController
  implements BeforeApplicationShutdown
{
  readonly descriptor = CORE_ADAPTER_DESCRIPTOR;
  private readonly active = new Map<string, ActiveRun>();

  constructor(
    private readonly ledger: HarnessLedgerService,
    private readonly loop: CoreRunLoop,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly scrubber: SecretScrubber,
  ) {
    super();
  }

  /**
   * @throws {HarnessSpecError} `opts.spec` does not satisfy the schema.
   * @throws {Error} The working directory does not exist or is not a directory.
   */
  async createSession(opts: CreateHarnessSessionOptions): Promise<HarnessSessionRecord> {
    const spec = validSpec(opts.spec, 'spec');
    const workingDir = resolve(opts.workingDir);
    const info = await stat(workingDir).catch(() => null);
    if (!info?.isDirectory()) throw new Error(`working directory ${workingDir} is not a directory`);
    return this.ledger.createSession({
      id: opts.id,
      specName: spec.name,
      workingDir,
      spec,
      modelSelection: mergeSelection({}, opts.model),
      metadata: opts.metadata ?? {},
    });
  }

  send(
    sessionId: string,
    prompt: string,
    opts: HarnessSendOptions = {},
  ): AsyncIterable<HarnessEvent> {
    return this.launch(async (channel) => {
      const session = await this.ledger.getSession(sessionId);
      const [paused] = await this.ledger.listRuns({ sessionId, status: 'needs_approval' });
      const running = [...this.active.entries()].find(([, run]) => run.sessionId === sessionId);
      if (running) throw new HarnessSessionBusyError(sessionId, running[0], 'running');
      if (paused) throw new HarnessSessionBusyError(sessionId, paused.id, paused.status);
      const input = this.segment(channel, session, this.ids.next(), 0, opts.signal);
      const selection = mergeSelection(session.modelSelection, opts.model);
      return { input, work: () => this.loop.start(input, prompt, selection) };
    });
  }

  override resume(
    runId: string,
    decision: HarnessApprovalDecision,
    opts: HarnessResumeOptions = {},
  ): AsyncIterable<HarnessEvent> {
    this.requireCapability('resume');
    return this.launch(async (channel) => {
      const run = await this.ledger.getRun(runId);
      const session = await this.ledger.getSession(run.session_id);
      const lastSequence = await this.ledger.lastSequence(runId);
      if (this.active.has(runId)) throw new HarnessRunNotResumableError(runId, 'running');
      if (run.status !== 'needs_approval') throw new HarnessRunNotResumableError(runId, run.status);
      const input = this.segment(channel, session, runId, lastSequence, opts.signal);
      return { input, work: () => this.loop.resume(input, decision) };
    });
  }

  /**
   * @throws {HarnessRunNotFoundError} Unknown run.
   * @throws {Error} The ledger failed to record `run.cancelled` of a paused run.
   */
  override async cancel(runId: string): Promise<void> {
    this.requireCapability('cancel');
    const running = this.active.get(runId);
    if (running) {
      running.controller.abort(new RunAbort('cancel', 'cancelled by user'));
      return running.done;
    }
    const run = await this.ledger.getRun(runId);
    if (run.status !== 'needs_approval') return;
    const session = await this.ledger.getSession(run.session_id);
    const lastSequence = await this.ledger.lastSequence(runId);
    // A resume may have started while the ledger was read: cancel that instead.
    if (this.active.has(runId)) return this.cancel(runId);
    const channel = new EventChannel<HarnessEvent>();
    const input = this.segment(channel, session, runId, lastSequence);
    try {
      await input.recorder.emit('run.cancelled', { reason: 'cancelled by user' });
    } finally {
      this.active.get(runId)?.release();
    }
  }

  /** @throws {HarnessSessionNotFoundError} Unknown session. */
  async export(sessionId: string): Promise<HarnessSessionExport> {
    return this.ledger.exportSession(sessionId);
  }

  /** Cancels every run in progress (`run.cancelled`) and waits until each is recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    const runs = [...this.active.values()];
    for (const run of runs) run.controller.abort(new RunAbort('shutdown', 'harness shutting down'));
    await Promise.allSettled(runs.map((run) => run.done));
  }

  /**
   * A channel fed by a run segment: `prepare` checks and builds (and registers) the segment;
   * its errors end the stream before any event. Then the segment runs in the background and
   * closes the channel.
   */
  private launch(
    prepare: (
      channel: EventChannel<HarnessEvent>,
    ) => Promise<{ input: RunSegmentInput; work: () => Promise<void> }>,
  ): AsyncIterable<HarnessEvent> {
    const channel = new EventChannel<HarnessEvent>();
    void prepare(channel).then(
      ({ input, work }) =>
        work()
          .then(
            () => channel.close(),
            (err: unknown) => channel.fail(err),
          )
          .finally(() => this.active.get(input.recorder.runId)?.release()),
      (err: unknown) => channel.fail(err),
    );
    return channel;
  }

  private segment(
    channel: EventChannel<HarnessEvent>,
    session: StoredHarnessSession,
    runId: string,
    lastSequence: number,
    signal?: AbortSignal,
  ): RunSegmentInput {
    const spec = validSpec(session.spec, `session ${session.record.id}`);
    const controller = new AbortController();
    const onAbort = () => controller.abort(new RunAbort('cancel', 'cancelled by the caller'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const { ledger, clock, ids, scrubber } = this;
    const target = { ledger, channel, clock, ids, scrubber };
    const recorder = new RunRecorder(target, session.record.id, runId, lastSequence);
    const detach = () => signal?.removeEventListener('abort', onAbort);
    this.register(runId, session.record.id, controller, detach);
    return { recorder, controller, session, spec };
  }

  /** Marks a run as in progress (synchronously: no other check can slip in between). */
  private register(
    runId: string,
    sessionId: string,
    controller: AbortController,
    detach: () => void,
  ): void {
    let settle: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const release = () => {
      this.active.delete(runId);
      detach();
      settle();
    };
    this.active.set(runId, { sessionId, controller, done, release });
  }
}
