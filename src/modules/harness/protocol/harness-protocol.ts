import type { HarnessSpec } from '../spec/harness-spec.schema';
import type { HarnessModelSelection } from '../providers/model-selection';
import type { HarnessApprovalDecision, HarnessEvent } from './harness-events';
import { HarnessCapabilityError } from './harness-protocol.errors';
import type { HarnessCapability } from './harness-protocol.errors';
import type { HarnessSessionExport, HarnessSessionRecord } from './harness-records';

/** What an adapter can do; an operation whose capability is false throws HarnessCapabilityError. */
export type HarnessCapabilities = Readonly<Record<HarnessCapability, boolean>>;

/** Identity and capabilities of a harness adapter. */
export interface HarnessAdapterDescriptor {
  /** Stable id, e.g. `core`. */
  id: string;
  /** Human-readable name. */
  name: string;
  capabilities: HarnessCapabilities;
}

/** Input of {@link HarnessProtocolController.createSession}. */
export interface CreateHarnessSessionOptions {
  /** A validated spec (`loadHarnessSpec`, `parseHarnessSpec` or `builtinTemplate`). */
  spec: HarnessSpec;
  /** Directory the tools work in (resolved to an absolute path); must exist. */
  workingDir: string;
  /** Default model of the session's runs; falls back to `spec.model_policy.primary`. */
  model?: HarnessModelSelection;
  /** Caller JSON kept with the session (e.g. the A2A context id). */
  metadata?: Record<string, unknown>;
  /** Session id to use (e.g. `a2a-<contextId>`); a new random id when absent. */
  id?: string;
}

/** Options of {@link HarnessProtocolController.send}. */
export interface HarnessSendOptions {
  /** Aborting it cancels the run (`run.cancelled`), like `cancel(runId)`. */
  signal?: AbortSignal;
  /** Model of this run, over the session's default (each field separately). */
  model?: HarnessModelSelection;
}

/** Options of {@link HarnessProtocolController.resume}. */
export interface HarnessResumeOptions {
  /** Aborting it cancels the resumed run. */
  signal?: AbortSignal;
}

/**
 * The harness protocol: sessions that run prompts and stream {@link HarnessEvent}s. Nest
 * provider token (abstract class): `HarnessModule` binds it to the built-in `CoreHarnessAdapter`;
 * an app may bind its own adapter to this token instead.
 *
 * Stream contract: `send` and `resume` return an AsyncIterable that yields every event of the
 * run segment in sequence order and ends after its terminal event (`run.completed`,
 * `run.failed` or `run.cancelled`). Errors before the run exists (unknown session, busy
 * session) reject the first `next()`; afterwards failures arrive as `run.failed`, never as
 * exceptions. Leaving the loop early stops delivery, not the run: use `cancel` or the signal.
 * @see harness-events.ts for the event types and their data.
 */
export abstract class HarnessProtocolController {
  /** Identity and capabilities of this adapter. */
  abstract readonly descriptor: HarnessAdapterDescriptor;

  /**
   * Opens a session; its conversation carries over from run to run.
   * @throws {Error} The working directory does not exist, or the store failed.
   */
  abstract createSession(opts: CreateHarnessSessionOptions): Promise<HarnessSessionRecord>;

  /**
   * Starts a run of `prompt` in a session and streams its events.
   * @throws {HarnessSessionNotFoundError} (on first `next()`) Unknown session.
   * @throws {HarnessSessionBusyError} (on first `next()`) The session has a run in progress or
   *   waiting for approval.
   */
  abstract send(
    sessionId: string,
    prompt: string,
    opts?: HarnessSendOptions,
  ): AsyncIterable<HarnessEvent>;

  /**
   * Continues a run that ended `needs_approval`: `approve` executes the pending tool call(s),
   * `deny` refuses them; then the run goes on. Default: capability `resume` is absent.
   * @throws {HarnessCapabilityError} The adapter cannot resume.
   * @throws {HarnessRunNotFoundError} (on first `next()`) Unknown run.
   * @throws {HarnessRunNotResumableError} (on first `next()`) The run is not waiting for approval.
   */
  resume(
    _runId: string,
    _decision: HarnessApprovalDecision,
    _opts?: HarnessResumeOptions,
  ): AsyncIterable<HarnessEvent> {
    throw new HarnessCapabilityError(this.descriptor.id, 'resume');
  }

  /**
   * Cancels a run: a running one stops (model call and tool aborted, `run.cancelled`); one
   * waiting for approval is closed as cancelled; an ended run is left as it is.
   * Default: capability `cancel` is absent.
   * @throws {HarnessCapabilityError} The adapter cannot cancel.
   * @throws {HarnessRunNotFoundError} Unknown run.
   */
  cancel(_runId: string): Promise<void> {
    return Promise.reject(new HarnessCapabilityError(this.descriptor.id, 'cancel'));
  }

  /**
   * The whole session as JSON: session, runs oldest first, each run's events.
   * @throws {HarnessSessionNotFoundError} Unknown session.
   */
  abstract export(sessionId: string): Promise<HarnessSessionExport>;

  /** @throws {HarnessCapabilityError} When `capability` is false in the descriptor. */
  protected requireCapability(capability: HarnessCapability): void {
    if (!this.descriptor.capabilities[capability]) {
      throw new HarnessCapabilityError(this.descriptor.id, capability);
    }
  }
}
