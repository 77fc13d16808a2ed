import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  Optional,
} from '@nestjs/common';
import { ACTIVE_HARNESS, EMBEDDED_HARNESS_CONTROLLER } from './active-harness';
import { TaskState } from '@a2a-js/sdk';
import type { AgentSkill, Message, Task } from '@a2a-js/sdk';
import type { ExecutionEventBus, RequestContext, ServerCallContext } from '@a2a-js/sdk/server';
import { PrincipalUser } from '../../../common/auth/principal';
import { Clock, IdGenerator } from '../../../common/runtime/clock';
import type { ConfigType } from '@nestjs/config';
import { harnessConfig } from '../../../config/namespaces';
import { A2aSkill } from '../../skills/a2a-skill';
import { A2aSkillProvider, HARNESS_SKILL_ORDER } from '../../skills/a2a-skill-provider.decorator';
import { messageText } from '../../skills/message-parts';
import { RUN_ID_METADATA_KEY } from '../../tasks/task-reconciler.service';
import type { HarnessEvent } from '../protocol/harness-events';
import { HarnessProtocolController } from '../protocol/harness-protocol';
import { HarnessSessionBusyError } from '../protocol/harness-protocol.errors';
import { APPROVAL_HOW_TO, decisionOf } from './approval-prompt';
import { ContextSessions } from './context-sessions.service';
import { HarnessTurn } from './harness-turn';
import { HarnessRuntime } from './harness-runtime';
import { HarnessRunLog } from '../../observability/harness-run-log';
import {
  callerPrincipal,
  harnessAccessRefusal,
  harnessSecurityRequirements,
} from './harness-access';
import type { A2aHttpException } from '../../../common/errors/http-rejections';
import { sandboxPolicy } from '../sandbox/sandbox-command';
import type { SandboxName } from '../sandbox/sandbox-probe';

/** Skill id advertised in the card. */
export const HARNESS_SKILL_ID = 'superqode-harness';

/** How long a graceful stop waits for running turns to store their CANCELED state, ms. */
export const SHUTDOWN_GRACE_MS = 5_000;

/**
 * `superqode-harness`: runs the configured HarnessSpec in the server's checkout for one A2A task.
 * A contextId is one harness session (`a2a-<contextId>`, bound to its creator); a task is one run.
 * Answer deltas stream as `answer` artifact chunks; a permission rule `ask` ends the turn in
 * INPUT_REQUIRED, and the caller's next message on the task ("approve"/"deny", or a data part
 * `{"decision": …}`) resumes the run. CancelTask aborts the model call and running commands.
 * @see A2A specification §3.1.1 SendMessage, §4.1.3 TaskState; issue #5.
 */
@A2aSkillProvider({ order: HARNESS_SKILL_ORDER })
@Injectable()
export class HarnessSkill
  extends A2aSkill
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  readonly id = HARNESS_SKILL_ID;
  override readonly catchAll = true;
  private readonly logger = new Logger(HarnessSkill.name);
  /** Runs in flight: task id → abort controller, run id and the turn's completion. */
  private readonly live = new Map<
    string,
    { abort: AbortController; runId?: string; done?: Promise<void> }
  >();
  /** Tasks whose turn ended waiting for an approval: task id → the run that waits (this process). */
  private readonly paused = new Map<string, string>();
  /** Why the built-in controller cannot run a model (null: it can, or an embedded one runs). */
  private readonly modelProblem: string | null;

  constructor(
    @Inject(harnessConfig.KEY) private readonly settings: ConfigType<typeof harnessConfig>,
    @Inject(ACTIVE_HARNESS) private readonly harness: HarnessProtocolController,
    private readonly sessions: ContextSessions,
    private readonly runtime: HarnessRuntime,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Optional()
    @Inject(EMBEDDED_HARNESS_CONTROLLER)
    private readonly embedded?: HarnessProtocolController,
    @Optional() private readonly runLog?: HarnessRunLog,
  ) {
    super();
    // An embedded controller chooses its own model; the built-in one needs a resolvable choice.
    this.modelProblem = embedded ? null : runtime.modelProblem();
  }

  /**
   * Warns at start when the skill is enabled for this bind but not served because no model can be
   * chosen (no provider/model configured and no `model_policy.primary` in the spec): the card,
   * `/health` and the router then leave it out, and every request goes to the shortlist.
   */
  onApplicationBootstrap(): void {
    if (this.isServed()) for (const warning of this.runtime.warnings) this.logger.warn(warning);
    const problem = this.settings.served ? this.modelProblem : null;
    if (problem) {
      this.logger.warn(
        `The ${HARNESS_SKILL_ID} skill is not served: it cannot run a model (${problem}); every request goes to the shortlist. ` +
          'Set SUPERQODE_A2A_HARNESS_PROVIDER and SUPERQODE_A2A_HARNESS_MODEL (serve a2a: --provider, --model), ' +
          'or a spec with model_policy.primary, to serve it; SUPERQODE_A2A_HARNESS_ENABLED=false silences this.',
      );
    }
  }

  /** Served: enabled for this bind (config) and a model can be chosen (or an embedded controller). */
  isServed(): boolean {
    return this.settings.served && this.modelProblem === null;
  }

  override notServedReason(): string {
    if (!this.settings.enabled) return 'it is switched off (SUPERQODE_A2A_HARNESS_ENABLED=false)';
    if (!this.settings.served) {
      return 'a remote bind serves the harness only with --expose-harness (which needs --spec and a credential for --harness-access)';
    }
    return this.modelProblem ? `no model is configured (${this.modelProblem})` : 'it is served';
  }

  /** The catch-all: whatever the shortlist's narrow phrases do not claim. */
  matchesText(): boolean {
    return true;
  }

  card(): AgentSkill {
    return {
      id: HARNESS_SKILL_ID,
      name: 'SuperQode Harness',
      description:
        "Runs a SuperQode coding harness (HarnessSpec) in the server's checkout: reads, edits and runs " +
        "commands under the spec's policy, streams its answer, asks for approval when a rule says so, and " +
        'returns the answer and a unified diff of the files it changed. ' +
        sandboxSentence(this.runtime.sandbox),
      tags: ['coding', 'harness', 'agent', 'diff'],
      examples: [
        'Fix the failing test in src/parser.ts',
        'Explain what src/main.ts does',
        'Add a --verbose flag to the CLI and update the README',
      ],
      inputModes: ['text/plain', 'text/markdown', 'application/json'],
      outputModes: ['text/plain', 'text/x-diff'],
      securityRequirements: harnessSecurityRequirements(this.settings.access),
    };
  }

  /** 401/403 for a caller below `--harness-access` (issue #12); see {@link harnessAccessRefusal}. */
  override accessRefusal(context: ServerCallContext): A2aHttpException | undefined {
    return harnessAccessRefusal(callerPrincipal(context), this.settings.access);
  }

  /** The context is a harness session bound to this caller. */
  override async continues(contextId: string, context: ServerCallContext): Promise<boolean> {
    return (await this.sessions.ownerOf(contextId)) === principalIdOf(context);
  }

  /**
   * Refuses a context bound to another principal before any task is created.
   * @throws {RequestMalformedError} The context belongs to another caller.
   */
  override async authorize(message: Message, context: ServerCallContext): Promise<void> {
    if (message.contextId) await this.authorizeContext(message.contextId, context);
  }

  /**
   * Refuses a context whose harness session another principal created, also when the message
   * routes to another skill or continues a task without naming its context (issue #11.7).
   * @throws {RequestMalformedError} The context belongs to another caller.
   */
  override async authorizeContext(contextId: string, context: ServerCallContext): Promise<void> {
    await this.sessions.authorize(contextId, principalIdOf(context));
  }

  /**
   * Graceful stop: cancels every running turn and waits (up to {@link SHUTDOWN_GRACE_MS}) for its
   * CANCELED state to be stored, before the stores close (`onApplicationShutdown`).
   */
  async beforeApplicationShutdown(): Promise<void> {
    const running = [...this.live.values()];
    for (const entry of running) entry.abort.abort();
    const settled = Promise.allSettled(running.map((e) => e.done ?? Promise.resolve()));
    await Promise.race([settled, new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref())]);
  }

  async execute(context: RequestContext, bus: ExecutionEventBus, task: Task): Promise<void> {
    const entry: { abort: AbortController; runId?: string; done?: Promise<void> } = {
      abort: new AbortController(),
    };
    this.live.set(context.taskId, entry);
    entry.done = this.turn(context, bus, task, entry);
    return entry.done;
  }

  private async turn(
    context: RequestContext,
    bus: ExecutionEventBus,
    task: Task,
    entry: { abort: AbortController; runId?: string },
  ): Promise<void> {
    const abort = entry.abort;
    const trace = this.runLog?.trace(context.taskId, context.contextId);
    const turn = new HarnessTurn(
      context,
      bus,
      task,
      this.clock,
      this.ids,
      { workingDir: this.settings.workingDir, scrubber: this.runtime.scrubber },
      sandboxPolicy(this.runtime.spec),
    );
    try {
      const events = await this.start(context, task, turn, abort.signal);
      if (!events) return;
      if (entry.runId) trace?.resumed(entry.runId);
      turn.begin();
      try {
        for await (const event of events) {
          if (event.type === 'run.started') entry.runId = event.run_id;
          if (event.type === 'run.completed' && event.data.status === 'needs_approval') {
            if (entry.runId) this.paused.set(context.taskId, entry.runId);
          }
          trace?.on(event);
          await turn.on(event);
        }
      } catch (err) {
        if (!(err instanceof HarnessSessionBusyError)) throw err;
        turn.reject(this.busyAnswer(err));
      }
    } finally {
      this.live.delete(context.taskId);
    }
  }

  /** Why a message to a busy context was not run, and what the caller can do instead. */
  private busyAnswer(err: HarnessSessionBusyError): string {
    const running =
      [...this.live.entries()].find(([, e]) => e.runId === err.runId)?.[0] ??
      [...this.paused.entries()].find(([, runId]) => runId === err.runId)?.[0];
    const which = running ? `task ${running}` : `the task whose superqodeRunId is ${err.runId}`;
    if (err.status === 'needs_approval') {
      return (
        `This context is waiting for an approval on ${which}. Reply "approve" or "deny" on that task ` +
        '(message.taskId), or cancel it (CancelTask), then send this request again; or send it without a contextId to start a new session.'
      );
    }
    return (
      `This context is busy: ${which} is still running. Wait for it to finish (GetTask or SubscribeToTask) ` +
      'or cancel it (CancelTask), then send this request again; or send it without a contextId to start a new session.'
    );
  }

  /**
   * Closes the run a paused task waits on as cancelled (ledger `cancelled`, `run.cancelled`), so
   * its context takes new messages again. Runs paused before this process started are left to
   * the approval reply or the context's next run (see docs/security.md).
   */
  override async cancelPaused(taskId: string): Promise<void> {
    const runId = this.paused.get(taskId);
    if (!runId) return;
    this.paused.delete(taskId);
    await this.harness.cancel(runId).catch((err: Error) => {
      this.logger.warn(`Could not cancel run ${runId} of task ${taskId}: ${err.message}`);
    });
  }

  async cancel(taskId: string): Promise<boolean> {
    const entry = this.live.get(taskId);
    if (!entry) return false;
    entry.abort.abort();
    if (entry.runId) await this.harness.cancel(entry.runId).catch(() => undefined);
    return true;
  }

  /** A new run, or the resumed pending one; undefined when the turn was answered already. */
  private async start(
    context: RequestContext,
    task: Task,
    turn: HarnessTurn,
    signal: AbortSignal,
  ): Promise<AsyncIterable<HarnessEvent> | undefined> {
    const pendingRun =
      task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED ? runIdOf(task) : undefined;
    if (pendingRun) {
      entryRun(this.live.get(context.taskId), pendingRun);
      this.paused.delete(context.taskId);
      const decision = decisionOf(context.userMessage);
      if (!decision) {
        turn.askAgain(`Not understood: the run still waits for a decision. ${APPROVAL_HOW_TO}`);
        return undefined;
      }
      return this.harness.resume(pendingRun, decision, { signal });
    }
    const prompt = messageText(context.userMessage);
    const limit = this.runtime.spec.limits.max_input_bytes;
    const bytes = Buffer.byteLength(prompt, 'utf8');
    if (bytes > limit) {
      turn.refuse(`The request is ${bytes} bytes; the spec's limits.max_input_bytes is ${limit}.`);
      return undefined;
    }
    const sessionId = await this.sessions.ensure(context.contextId, principalIdOf(context.context));
    return this.harness.send(sessionId, prompt, { signal });
  }
}

/** The owner id the task store also uses (`user.userName`), or 'unknown' as the SDK does. */
function principalIdOf(context: ServerCallContext | undefined): string {
  const user = context?.user;
  return user instanceof PrincipalUser ? user.principal.id : user?.userName || 'unknown';
}

/** A resumed turn runs the pending run: its id is known before `run.started` (none on resume). */
function entryRun(entry: { runId?: string } | undefined, runId: string): void {
  if (entry) entry.runId = runId;
}

function runIdOf(task: Task): string | undefined {
  const v = task.metadata?.[RUN_ID_METADATA_KEY];
  return typeof v === 'string' ? v : undefined;
}

/** The card's words for the sandbox in force. */
function sandboxSentence(sandbox: SandboxName): string {
  return sandbox === 'bwrap'
    ? 'Sandbox: bwrap (tools run under bubblewrap, confined to the checkout).'
    : "Sandbox: local (NO isolation: tools run as the server's user on its host).";
}
