import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ModelMessage } from 'ai';
import { HARNESS_MODULE_OPTIONS } from '../harness.constants';
import { HarnessLedgerService } from '../ledger/harness-ledger.service';
import type { StoredHarnessSession } from '../ledger/harness-ledger.service';
import type {
  HarnessApprovalDecision,
  HarnessEvent,
  HarnessUsage,
} from '../protocol/harness-events';
import { HarnessProviderError } from '../protocol/harness-protocol.errors';
import { HarnessModelResolver } from '../providers/harness-model.resolver';
import { selectModel } from '../providers/model-selection';
import type { HarnessModelSelection, ResolvedModelSelection } from '../providers/model-selection';
import type { HarnessSpec } from '../spec/harness-spec.schema';
import * as convo from './conversation';
import { runModelTurn } from './model-turn';
import type { ModelTurnScope } from './model-turn';
import * as outcome from './run-outcome';
import type { RunTerminal } from './run-outcome';
import type { RunRecorder } from './run-recorder';
import { runSettings } from './run-settings';
import type { RunSettings } from './run-settings';
import { handleToolCalls, resolveApproval } from './tool-calls';
import { WorkspaceInspector } from './workspace.inspector';
import { sandboxPolicy } from '../sandbox/sandbox-command';
import { checksFailedMessage, runChecks } from '../checks/run-checks';

/** Options of the run loop (part of `HarnessModuleOptions`). */
export interface CoreRunOptions {
  /** Retries of a failed model request (AI SDK `maxRetries`); default 2. */
  modelMaxRetries?: number;
}

/** What every run segment gets from the adapter. */
export interface RunSegmentInput {
  recorder: RunRecorder;
  /** Aborted with a `RunAbort` reason by cancel, timeout or shutdown. */
  controller: AbortController;
  session: StoredHarnessSession;
  spec: HarnessSpec;
}

/** Mutable state of a run segment's model/tool loop. */
interface LoopState {
  scope: ModelTurnScope;
  messages: ModelMessage[];
  iteration: number;
  usage: HarnessUsage;
}

/**
 * The Core run loop: model turns through the AI SDK, tool calls under the spec's policy,
 * approvals, artifacts, timeout and cancellation. Every outcome is an event; it throws only
 * when the ledger cannot record one.
 */
@Injectable()
export class CoreRunLoop {
  private readonly logger = new Logger(CoreRunLoop.name);

  constructor(
    private readonly ledger: HarnessLedgerService,
    private readonly resolver: HarnessModelResolver,
    private readonly workspace: WorkspaceInspector,
    @Inject(HARNESS_MODULE_OPTIONS) private readonly options: CoreRunOptions,
  ) {}

  /**
   * A new run: `run.started`, the user `message.created`, then the loop.
   * @param selection - Session default merged with the caller's choice.
   * @throws {Error} The ledger failed to record an event.
   */
  async start(
    input: RunSegmentInput,
    prompt: string,
    selection: HarnessModelSelection,
  ): Promise<void> {
    const { recorder, session, spec } = input;
    const events = await this.ledger.sessionEvents(
      session.record.id,
      convo.CONVERSATION_EVENT_TYPES,
    );
    const messages = convo.conversationFrom(events);
    let chosen: ResolvedModelSelection | HarnessProviderError;
    try {
      chosen = selectModel(selection, spec.model_policy.primary);
    } catch (err) {
      if (!(err instanceof HarnessProviderError)) throw err;
      chosen = err;
    }
    const known = chosen instanceof HarnessProviderError ? null : chosen;
    await recorder.emit('run.started', {
      prompt,
      provider: known?.provider ?? selection.provider ?? null,
      model: known?.model ?? selection.model ?? null,
      base_url: known?.baseUrl ?? null,
      working_dir: session.record.working_dir,
    });
    await recorder.emit('message.created', { role: 'user', text: prompt });
    messages.push({ role: 'user', content: prompt });
    await this.guard(input, async (settings) => {
      if (chosen instanceof HarnessProviderError) throw chosen;
      return this.drive(this.loopState(input, settings, chosen, messages, 0));
    });
  }

  /**
   * Continues a run paused for approval: `approval.resolved` and the tool result for each
   * pending call, then the loop from the recorded conversation.
   * @throws {Error} The ledger failed to record an event.
   */
  async resume(input: RunSegmentInput, decision: HarnessApprovalDecision): Promise<void> {
    const { recorder, session } = input;
    const events = await this.ledger.sessionEvents(
      session.record.id,
      convo.CONVERSATION_EVENT_TYPES,
    );
    const runEvents = events.filter((e) => e.run_id === recorder.runId);
    const messages = convo.conversationFrom(events, recorder.runId);
    await this.guard(input, async (settings, signal) => {
      for (const pending of convo.pendingApprovals(runEvents)) {
        const result = await resolveApproval(pending, decision, { recorder, settings, signal });
        convo.appendToolResults(messages, [convo.toolResultPart(result)]);
      }
      signal.throwIfAborted();
      const selection = selectModel(startedSelection(runEvents), undefined);
      const state = this.loopState(
        input,
        settings,
        selection,
        messages,
        convo.iterationsOf(runEvents),
      );
      return this.drive(state);
    });
  }

  /**
   * Runs a segment body under the spec's timeout, then records the files it changed
   * (`artifact.created`) and its terminal event, whatever the body did.
   */
  private async guard(
    input: RunSegmentInput,
    body: (settings: RunSettings, signal: AbortSignal) => Promise<RunTerminal>,
  ): Promise<void> {
    const { controller, recorder, spec } = input;
    const dir = input.session.record.working_dir;
    const seconds = spec.limits.task_timeout_seconds;
    const timer = setTimeout(
      () => controller.abort(new outcome.RunAbort('timeout', outcome.timeoutMessage(seconds))),
      seconds * 1000,
    );
    const sandbox = sandboxPolicy(spec);
    const before = spec.flavor === 'no_tool' ? null : await this.workspace.snapshot(dir, sandbox);
    let terminal: RunTerminal;
    try {
      const files = await this.workspace.instructionFiles(dir, spec.context.instruction_files);
      terminal = await body(runSettings(spec, dir, files), controller.signal);
    } catch (err) {
      terminal = outcome.terminalFor(err, controller.signal);
      if (terminal.type === 'run.failed' && terminal.data.code === 'internal') {
        this.logger.error(`run ${recorder.runId} failed`, err instanceof Error ? err.stack : err);
      }
    } finally {
      clearTimeout(timer);
    }
    const paths = await this.workspace.changedSince(dir, before, sandbox);
    if (paths.length > 0) await recorder.emit('artifact.created', { paths });
    await outcome.emitTerminal(recorder, terminal);
  }

  private loopState(
    input: RunSegmentInput,
    settings: RunSettings,
    selection: ResolvedModelSelection,
    messages: ModelMessage[],
    iteration: number,
  ): LoopState {
    const scope: ModelTurnScope = {
      recorder: input.recorder,
      settings,
      model: this.resolver.resolve(selection),
      signal: input.controller.signal,
      maxRetries: this.options.modelMaxRetries ?? 2,
    };
    return { scope, messages, iteration, usage: outcome.NO_USAGE };
  }

  /** Model turns and tool calls until the model stops, asks for approval or hits the cap. */
  private async drive(state: LoopState): Promise<RunTerminal> {
    const { scope } = state;
    let text = '';
    while (state.iteration < scope.settings.maxIterations) {
      state.iteration += 1;
      const turn = await this.modelTurn(state);
      state.messages.push(...turn.messages);
      state.usage = outcome.addUsage(state.usage, turn.usage);
      text = turn.text;
      if (turn.toolCalls.length === 0) return this.completed(state, 'stop', text);
      const { results, pending } = await handleToolCalls(turn.toolCalls, scope);
      scope.signal.throwIfAborted();
      convo.appendToolResults(state.messages, results.map(convo.toolResultPart));
      if (pending.length > 0) return this.completed(state, 'approval', text);
    }
    return this.completed(state, 'max_iterations', text);
  }

  /** One model call; provider failures become a HarnessProviderError with a readable message. */
  private async modelTurn(state: LoopState): ReturnType<typeof runModelTurn> {
    try {
      return await runModelTurn(state.messages, state.iteration, state.scope);
    } catch (err) {
      if (state.scope.signal.aborted) throw err;
      throw new HarnessProviderError(this.resolver.describeError(err, state.scope.model.selection));
    }
  }

  private async completed(
    state: LoopState,
    stopReason: 'stop' | 'max_iterations' | 'approval',
    text: string,
  ): Promise<RunTerminal> {
    if (stopReason !== 'approval' && text) {
      await state.scope.recorder.emit('message.created', { role: 'assistant', text });
    }
    if (stopReason === 'stop') {
      const { recorder, settings, signal } = state.scope;
      const results = await runChecks(settings.spec, settings.workingDir, signal, (r) =>
        recorder.emit('check.completed', r).then(() => undefined),
      );
      const failedChecks = results.filter((r) => !r.ok);
      if (failedChecks.length > 0 && settings.spec.checks.on_failure === 'fail') {
        return outcome.failed('checks', checksFailedMessage(failedChecks));
      }
    }
    const status = stopReason === 'approval' ? 'needs_approval' : 'succeeded';
    const { iteration: iterations, usage } = state;
    return {
      type: 'run.completed',
      data: { status, stop_reason: stopReason, text, iterations, usage },
    };
  }
}

/** The model choice recorded by a run's `run.started`. */
function startedSelection(runEvents: HarnessEvent[]): HarnessModelSelection {
  const started = runEvents.find((e) => e.type === 'run.started');
  if (!started || started.type !== 'run.started') return {};
  const { provider, model, base_url } = started.data;
  return {
    provider: provider ?? undefined,
    model: model ?? undefined,
    baseUrl: base_url ?? undefined,
  };
}
