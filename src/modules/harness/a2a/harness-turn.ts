import { TaskState } from '@a2a-js/sdk';
import type { Part, Task } from '@a2a-js/sdk';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { Clock, IdGenerator } from '../../../common/runtime/clock';
import { agentMessage, artifact, textPart } from '../../skills/message-parts';
import { RUN_ID_METADATA_KEY } from '../../tasks/task-reconciler.service';
import type { HarnessEvent } from '../protocol/harness-events';
import { changesDiff } from './changes-diff';
import { APPROVAL_HOW_TO, approvalQuestion } from './approval-prompt';
import { ToolProgressLines, meta } from './tool-progress';
import { checkProgress, checksPart } from './checks-artifact';
import type { CheckResult } from '../checks/run-checks';
import type { ToolProgress } from './tool-progress';
import type { SandboxPolicy } from '../sandbox/sandbox-command';
import { acceptsOutput } from '../../skills/content-modes';
import type { SecretScrubber } from '../core/secret-scrubber';

/**
 * One A2A turn of the harness skill: maps Harness Protocol events onto A2A events.
 * - `message.delta` → chunks of the `answer` artifact (`append`, `lastChunk` on the last);
 * - `tool.requested` (allowed) / `tool.completed` → WORKING updates "running bash: npm test" /
 *   "wrote src/a.ts", the tool and its target in the message metadata;
 * - `artifact.created` → `changes.diff` (unified diff) at the end;
 * - `run.completed` succeeded → COMPLETED, needs_approval → INPUT_REQUIRED naming the tool call,
 *   stopped at max_iterations → FAILED naming the limit;
 * - `check.completed` → a WORKING progress line, and a line of the `checks` artifact at the end
 *   (also when failed checks fail the run: `run.failed` code `checks`);
 * - `run.failed` → FAILED with its message; `run.cancelled` → CANCELED.
 * The status message metadata carries `superqodeSkill`, `superqodeSessionId`, `superqodeRunId`.
 */
export class HarnessTurn {
  private readonly answerId: string;
  private chunks = 0;
  private runId: string | undefined;
  private sessionId: string | undefined;
  private changed: string[] = [];
  private readonly tools = new ToolProgressLines();
  private readonly checks: CheckResult[] = [];
  private pending: Extract<HarnessEvent, { type: 'approval.requested' }>['data'] | undefined;

  constructor(
    private readonly ctx: RequestContext,
    private readonly bus: ExecutionEventBus,
    private readonly task: Task,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly workspace: { workingDir: string; scrubber: SecretScrubber },
    private readonly sandbox?: SandboxPolicy,
  ) {
    this.answerId = ids.next();
    // A reply to an approval question: the question's metadata names the call it resumes.
    const asked = task.status?.message?.metadata;
    if (
      typeof asked?.superqodeToolCallId === 'string' &&
      typeof asked.superqodeToolTarget === 'string'
    ) {
      this.tools.remember(asked.superqodeToolCallId, asked.superqodeToolTarget);
    }
  }

  /** First event of the turn: the Task, WORKING. */
  begin(): void {
    const status = {
      state: TaskState.TASK_STATE_WORKING,
      message: undefined,
      timestamp: this.clock.isoNow(),
    };
    this.bus.publish(AgentEvent.task({ ...this.task, status }));
  }

  /** Ends the turn FAILED before any run starts (a limit was exceeded), saying which. */
  refuse(text: string): void {
    this.bus.publish(AgentEvent.task(this.task));
    this.status(TaskState.TASK_STATE_FAILED, text);
  }

  /** Keeps the task waiting for a decision (the reply was neither approve nor deny). */
  askAgain(text: string): void {
    this.bus.publish(AgentEvent.task(this.task));
    // The question still stands: keep naming its call, so the approved call's progress lines
    // (and a client reading this status) still have its tool and target.
    const asked = this.task.status?.message?.metadata ?? {};
    const call = Object.fromEntries(
      Object.entries(asked).filter(([k]) => k.startsWith('superqodeTool')),
    );
    this.status(TaskState.TASK_STATE_INPUT_REQUIRED, text, call);
  }

  /** Ends a begun turn REJECTED, saying why (e.g. the context already has a run in progress). */
  reject(text: string): void {
    this.status(TaskState.TASK_STATE_REJECTED, text);
  }

  async on(event: HarnessEvent): Promise<void> {
    switch (event.type) {
      case 'run.started':
        this.runId = event.run_id;
        this.sessionId = event.session_id;
        // Status-update metadata merges into the task's (SDK ResultManager): the run id is
        // stored with the task for crash reconciliation and approval resumes.
        return this.working({ [RUN_ID_METADATA_KEY]: event.run_id });
      case 'message.delta':
        return this.chunk(event.data.text, false);
      case 'tool.requested':
        return this.progress(this.tools.started(event.data));
      case 'tool.completed':
        return this.progress(this.tools.completed(event.data));
      case 'approval.requested':
        this.pending = event.data;
        return;
      case 'approval.resolved':
        return event.data.decision === 'approve'
          ? this.progress(this.tools.approved(event.data.tool_call_id, event.data.tool_name))
          : undefined;
      case 'artifact.created':
        this.changed = event.data.paths;
        return;
      case 'check.completed':
        this.checks.push(event.data);
        return this.progress(checkProgress(event.data));
      case 'run.completed':
        if (event.data.stop_reason === 'max_iterations') {
          return this.status(
            TaskState.TASK_STATE_FAILED,
            `Stopped at the max turns limit (model_policy.max_iterations = ${event.data.iterations}) before finishing.`,
          );
        }
        return this.completed(event.data.status, event.data.text);
      case 'run.failed':
        // Failed checks: the answer, the diff and the check results are still the caller's.
        if (event.data.code === 'checks') await this.results('');
        return this.status(TaskState.TASK_STATE_FAILED, event.data.message);
      case 'run.cancelled':
        return this.status(TaskState.TASK_STATE_CANCELED, `Cancelled: ${event.data.reason}`);
      default:
        return;
    }
  }

  private async completed(status: 'succeeded' | 'needs_approval', text: string): Promise<void> {
    await this.results(text);
    if (status === 'needs_approval') {
      const question = this.pending
        ? approvalQuestion(this.pending)
        : `Approval needed: a tool call. ${APPROVAL_HOW_TO}`;
      const call = this.pending
        ? meta(
            this.pending.tool_name,
            this.pending.target,
            this.pending.tool_call_id,
            'awaiting_approval',
          )
        : {};
      return this.status(TaskState.TASK_STATE_INPUT_REQUIRED, question, call);
    }
    return this.status(TaskState.TASK_STATE_COMPLETED, text || 'Done.');
  }

  /** The answer's last chunk, then `changes.diff` and `checks` when there is something in them. */
  private async results(text: string): Promise<void> {
    // A turn that streamed nothing and ends without text (e.g. it stopped for an approval) has
    // no answer: no empty `answer` artifact.
    if (this.chunks > 0 || text) this.chunk(this.chunks === 0 ? text : '', true);
    const raw = await changesDiff(this.workspace.workingDir, this.changed, this.sandbox);
    const diff = raw && this.workspace.scrubber.scrub(raw);
    // The diff is a text/x-diff artifact: left out when the caller's acceptedOutputModes exclude it.
    if (
      diff &&
      acceptsOutput('text/x-diff', this.ctx.request.configuration?.acceptedOutputModes ?? [])
    ) {
      const part: Part = {
        content: { $case: 'text', value: diff },
        metadata: undefined,
        filename: 'changes.diff',
        mediaType: 'text/x-diff',
      };
      this.artifactEvent(
        artifact({ artifactId: this.ids.next(), name: 'changes.diff', parts: [part] }),
        false,
        true,
      );
    }
    if (this.checks.length > 0) {
      this.artifactEvent(
        artifact({ artifactId: this.ids.next(), name: 'checks', parts: [checksPart(this.checks)] }),
        false,
        true,
      );
    }
  }

  private chunk(text: string, last: boolean): void {
    this.artifactEvent(
      artifact({ artifactId: this.answerId, name: 'answer', parts: [textPart(text)] }),
      this.chunks > 0,
      last,
    );
    this.chunks += 1;
  }

  private artifactEvent(a: ReturnType<typeof artifact>, append: boolean, lastChunk: boolean): void {
    const { taskId, contextId } = this.ctx;
    this.bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: a,
        append,
        lastChunk,
        metadata: undefined,
      }),
    );
  }

  private working(metadata: Record<string, unknown>): void {
    const { taskId, contextId } = this.ctx;
    const status = {
      state: TaskState.TASK_STATE_WORKING,
      message: undefined,
      timestamp: this.clock.isoNow(),
    };
    this.bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status, metadata }));
  }

  /** A WORKING update whose message says which tool starts or ended (metadata: tool and target). */
  private progress(line: ToolProgress | undefined): void {
    if (!line) return;
    const { taskId, contextId } = this.ctx;
    const message = agentMessage({
      messageId: this.ids.next(),
      contextId,
      taskId,
      parts: [textPart(line.text)],
      metadata: line.metadata,
    });
    const status = { state: TaskState.TASK_STATE_WORKING, message, timestamp: this.clock.isoNow() };
    this.bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status, metadata: undefined }));
  }

  private status(state: TaskState, text: string, extra: Record<string, unknown> = {}): void {
    const { taskId, contextId } = this.ctx;
    const metadata = {
      superqodeSkill: 'superqode-harness',
      superqodeSessionId: this.sessionId,
      superqodeRunId: this.runId,
      ...extra,
    };
    const message = agentMessage({
      messageId: this.ids.next(),
      contextId,
      taskId,
      parts: [textPart(text)],
      metadata,
    });
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state, message, timestamp: this.clock.isoNow() },
        metadata: undefined,
      }),
    );
  }
}
