import { randomUUID } from 'node:crypto';
import { AgentCard, Role } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import type {
  CancelTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
} from '@a2a-js/sdk';
import { RequestMalformedError, TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import type { AgentExecutor, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { Task } from '@a2a-js/sdk';
import type { AgentCardService } from '../agent-card/agent-card.service';
import { SkillRouter } from '../skills/skill-router.service';
import { rememberSkillAccessRefusal } from '../skills/skill-access';
import type { A2aHttpException } from '../../common/errors/http-rejections';
import { checkContentModes } from '../skills/content-modes';
import { STREAMING_STATE_KEY } from '../skills/skills.constants';
import { callerTier } from '../auth/callers';
import type { ClusterTasks } from '../tasks/cluster/cluster-tasks.service';

/**
 * The SDK's `DefaultRequestHandler` with the input checks the SDK leaves to the agent,
 * applied once for every binding (JSON-RPC 1.0, JSON-RPC 0.3 after translation, HTTP+JSON):
 * a message with an id, the user role and at least one part of a known kind; a skill id that
 * this deployment serves; a caller allowed to run the skill the request reaches (issue #12).
 * Everything else is the SDK's protocol core, unchanged.
 * @throws {RequestMalformedError} (-32602 / HTTP 400) from sendMessage and, on the first
 *   `next()`, from sendMessageStream.
 * @throws {A2aHttpException} 401/403 for a caller below the skill's access tier, before any task
 *   exists (also recorded on the call context: see `skill-access.ts`).
 * @see A2A specification §3.1.1 SendMessage, §4.1.4 Message, §4.1.6 Part.
 */
export class SuperqodeRequestHandler extends DefaultRequestHandler {
  /**
   * @param cards - The card source. The SDK keeps the card it is given and reads only its
   *   `capabilities` directly; every other read goes through {@link getAgentCard}, which returns
   *   the full card, built once every skill module exists (see `SkillRegistry`).
   */
  constructor(
    private readonly cards: AgentCardService,
    private readonly tasks: TaskStore,
    executor: AgentExecutor,
    private readonly router: SkillRouter,
    private readonly cluster: ClusterTasks,
  ) {
    super({ ...AgentCard.fromJSON({}), capabilities: cards.capabilities }, tasks, executor);
    cluster.serve((id, context) =>
      this.cancelTask({ tenant: context.tenant ?? '', id, metadata: {} }, context),
    );
  }

  /**
   * CancelTask; a task running on another instance (issue #15) is cancelled there (a `cancel`
   * signal its runner serves as a local cancel), and its stored CANCELED state is returned.
   * @throws {TaskNotCancelableError} It reached another final state first.
   */
  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    if (this.cluster.isLive(params.id, context)) return super.cancelTask(params, context);
    const load = () => this.tasks.load(params.id, context);
    const remote = await this.cluster.cancelElsewhere(params.id, context, load);
    if (!remote) return super.cancelTask(params, context);
    if (remote.status?.state === TaskState.TASK_STATE_CANCELED) return remote;
    throw new TaskNotCancelableError(`Task not cancelable: ${params.id}`);
  }

  /**
   * SubscribeToTask; a task with no execution on this instance (issue #15) is followed through
   * the shared store: the stored task, then an event for each later stored change, until final.
   */
  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    if (!this.cards.capabilities?.streaming || this.cluster.isLive(params.id, context)) {
      return yield* super.resubscribe(params, context);
    }
    yield* this.cluster.follow(params.id, context, () => this.tasks.load(params.id, context));
  }

  override getAgentCard(): Promise<AgentCard> {
    return Promise.resolve(this.cards.card());
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    await this.check(params, context);
    return super.sendMessage(params, context);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    await this.check(params, context);
    context.state.set(STREAMING_STATE_KEY, true);
    yield* super.sendMessageStream(params, context);
  }

  /**
   * ListTasks; an anonymous caller gets only the tasks of the `contextId` it names, and none
   * without one (anonymous tasks share one owner, so an unfiltered list would show everyone's).
   * Without a contextId the request is still validated by the SDK and the store (bad pageSize,
   * status, pageToken → 400), against a fresh contextId no task has.
   * @throws {RequestMalformedError} Invalid list parameters.
   * @see issue #11.7; A2A specification §3.1.4 ListTasks.
   */
  override async listTasks(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    if (!params.contextId && callerTier(context) === 'anonymous') {
      const none = await super.listTasks({ ...params, contextId: `none:${randomUUID()}` }, context);
      return { ...none, tasks: [], nextPageToken: '', totalSize: 0 };
    }
    return super.listTasks(params, context);
  }

  private async check(params: SendMessageRequest, context: ServerCallContext): Promise<void> {
    const message = params.message;
    if (!message) throw new RequestMalformedError('message is required');
    if (!message.messageId) throw new RequestMalformedError('message.messageId is required');
    if (message.role !== Role.ROLE_USER) {
      throw new RequestMalformedError('message.role must be ROLE_USER (0.3: "user")');
    }
    if (!message.parts?.length) throw new RequestMalformedError('message.parts must not be empty');
    const bad = message.parts.findIndex((p) => p.content === undefined);
    if (bad >= 0) {
      throw new RequestMalformedError(
        `message.parts[${bad}] has no content: expected one of text, raw, url or data`,
      );
    }
    const task = message.taskId ? await this.tasks.load(message.taskId, context) : undefined;
    const skill = await this.router.route(params, message, context, task);
    // A message continuing a task without naming its context is checked against the task's
    // context, and every served skill (not only the one it routes to) may refuse that context,
    // so a harness session bound to another caller is refused before the SDK touches the task.
    let scoped = message;
    if (task?.contextId && !message.contextId) scoped = { ...message, contextId: task.contextId };
    const refusal =
      skill.accessRefusal(context) ?? (await this.continuationRefusal(scoped.contextId, context));
    if (refusal) throw rememberSkillAccessRefusal(context, refusal);
    checkContentModes(skill.card(), message, params.configuration?.acceptedOutputModes ?? []);
    await skill.authorize(scoped, context);
    if (scoped.contextId) {
      for (const other of this.router.served()) {
        if (other !== skill) await other.authorizeContext(scoped.contextId, context);
      }
    }
  }

  /**
   * A follow-up in a context where this caller has runs of a skill it may no longer run (e.g. an
   * INPUT_REQUIRED approval reply after the access setting changed) is refused like a request
   * naming that skill, whatever its text. Looked up only for callers some skill refuses.
   */
  private async continuationRefusal(
    contextId: string | undefined,
    context: ServerCallContext,
  ): Promise<A2aHttpException | undefined> {
    if (!contextId) return undefined;
    const guarded = this.router.served().filter((s) => s.accessRefusal(context));
    for (const skill of guarded) {
      if (await skill.continues(contextId, context)) return skill.accessRefusal(context);
    }
    return undefined;
  }
}
