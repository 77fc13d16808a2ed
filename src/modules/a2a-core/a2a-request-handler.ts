import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import {
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { AgentCardService } from '../agent-card/agent-card.service';
import { SkillRouter } from '../skills/skill-router.service';
import { rememberSkillAccessRefusal } from '../skills/skill-access';
import type { A2aHttpException } from '../../common/errors/http-rejections';
import { checkContentModes } from '../skills/content-modes';
import { STREAMING_STATE_KEY } from '../skills/skills.constants';
import { callerTier } from '../auth/callers';
import type { LeanExecutions } from './lean-executions';
import type { ClusterTasks } from '../tasks/cluster/cluster-tasks.service';
import { requireTaskId } from './lean-turns';
import { withHistoryLength } from './lean-execution';
import { assertNoNul } from '../../common/database/sql-dialect';

/** ListTasks page size when the request names none (the SDK's `DEFAULT_PAGE_SIZE`). */
const DEFAULT_PAGE_SIZE = 50;
const KNOWN_STATES = new Set(
  Object.values(TaskState).filter((v): v is TaskState => typeof v === 'number' && v >= 0),
);

/**
 * Our A2A protocol core, an SDK `A2ARequestHandler` of its own (issue #14; the SDK's transport
 * handlers, errors and 0.3 compat layer call it as they call `DefaultRequestHandler`), with the
 * input checks the SDK leaves to the agent applied once for every binding (JSON-RPC 1.0, JSON-RPC
 * 0.3 after translation, HTTP+JSON): a message with an id, the user role and at least one part of
 * a known kind; a skill id that this deployment serves; a caller allowed to run the skill the
 * request reaches (issue #12), before any task exists. Executions run on {@link LeanExecutions}
 * (live state in memory, one durable write per observable state); GetTask and ListTasks read the
 * store with the SDK's validation; push notifications are not served (the card says so).
 * @throws {RequestMalformedError} (-32602 / HTTP 400) from sendMessage and, on the first
 *   `next()`, from sendMessageStream.
 * @throws {A2aHttpException} 401/403 for a caller below the skill's access tier, before any task
 *   exists (also recorded on the call context: see `skill-access.ts`).
 * @see A2A specification §3.1 (operations), §4.1.4 Message, §4.1.6 Part; SDK 1.3.0
 *   `DefaultRequestHandler` (the behaviour kept).
 */
export class SuperqodeRequestHandler implements A2ARequestHandler {
  /**
   * @param cards - The card (built once every skill module exists: see `SkillRegistry`).
   * @param tasks - The store every read goes through (group-committing on our store).
   * @param cluster - Executions on other instances sharing the store (issue #15): a `cancel`
   *   signal from another instance is served here as a local CancelTask.
   */
  constructor(
    private readonly cards: AgentCardService,
    private readonly tasks: TaskStore,
    private readonly executions: LeanExecutions,
    private readonly router: SkillRouter,
    private readonly cluster: ClusterTasks,
  ) {
    cluster.serve((id, context) =>
      this.executions.cancelTask({ tenant: context.tenant ?? '', id, metadata: {} }, context),
    );
  }

  getAgentCard(): Promise<AgentCard> {
    return Promise.resolve(this.cards.card());
  }

  /**
   * @throws {UnsupportedOperationError} The card does not advertise an extended card.
   * @throws {ExtendedAgentCardNotConfiguredError} It does, but none is configured.
   */
  getAuthenticatedExtendedAgentCard(
    _params: GetExtendedAgentCardRequest,
    _context: ServerCallContext,
  ): Promise<AgentCard> {
    if (!this.cards.capabilities?.extendedAgentCard) {
      const text = 'Agent does not support authenticated extended card.';
      return Promise.reject(new UnsupportedOperationError(text));
    }
    return Promise.reject(new ExtendedAgentCardNotConfiguredError());
  }

  async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    await this.check(params, context);
    return this.executions.sendMessage(params, context);
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    await this.check(params, context);
    context.state.set(STREAMING_STATE_KEY, true);
    yield* this.executions.sendMessageStream(params, context);
  }

  /**
   * GetTask with `historyLength` (absent: all; ≤ 0: none; N: the last N).
   * @throws {TaskNotFoundError} No such task for the caller.
   */
  async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    requireTaskId(params.id);
    const task = await this.tasks.load(params.id, context);
    if (!task) throw new TaskNotFoundError(`Task not found: ${params.id}`);
    return withHistoryLength(task, params.historyLength);
  }

  /**
   * CancelTask; a task running on another instance (issue #15) is cancelled there (a `cancel`
   * signal its runner serves as a local cancel), and its stored CANCELED state is returned.
   * @throws {TaskNotCancelableError} It reached another final state first.
   */
  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    if (this.cluster.isLive(params.id, context)) return this.executions.cancelTask(params, context);
    const load = () => this.tasks.load(params.id, context);
    const remote = await this.cluster.cancelElsewhere(params.id, context, load);
    if (!remote) return this.executions.cancelTask(params, context);
    if (remote.status?.state === TaskState.TASK_STATE_CANCELED) return remote;
    throw new TaskNotCancelableError(`Task not cancelable: ${params.id}`);
  }

  /**
   * SubscribeToTask; a task with no execution on this instance (issue #15) is followed through
   * the shared store: the stored task, then an event for each later stored change, until final.
   */
  async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    if (!this.cards.capabilities?.streaming || this.cluster.isLive(params.id, context)) {
      return yield* this.executions.resubscribe(params, context);
    }
    yield* this.cluster.follow(params.id, context, () => this.tasks.load(params.id, context));
  }

  /**
   * ListTasks; an anonymous caller gets only the tasks of the `contextId` it names, and none
   * without one (anonymous tasks share one owner, so an unfiltered list would show everyone's).
   * Without a contextId the request is still validated (bad pageSize, status, pageToken → 400),
   * against a fresh contextId no task has.
   * @throws {RequestMalformedError} Invalid list parameters.
   * @see issue #11.7; A2A specification §3.1.4 ListTasks.
   */
  async listTasks(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    if (!params.contextId && callerTier(context) === 'anonymous') {
      const none = await this.list({ ...params, contextId: `none:${randomUUID()}` }, context);
      return { ...none, tasks: [], nextPageToken: '', totalSize: 0 };
    }
    return this.list(params, context);
  }

  /** @throws {PushNotificationNotSupportedError} Always: the card says `pushNotifications: false`. */
  createTaskPushNotificationConfig(
    _params: TaskPushNotificationConfig,
    _context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }

  /** @throws {PushNotificationNotSupportedError} Always. */
  getTaskPushNotificationConfig(
    _params: GetTaskPushNotificationConfigRequest,
    _context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }

  /** @throws {PushNotificationNotSupportedError} Always. */
  listTaskPushNotificationConfigs(
    _params: ListTaskPushNotificationConfigsRequest,
    _context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }

  /** @throws {PushNotificationNotSupportedError} Always. */
  deleteTaskPushNotificationConfig(
    _params: DeleteTaskPushNotificationConfigRequest,
    _context: ServerCallContext,
  ): Promise<void> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }

  /** The SDK's ListTasks validation, then the store, then `historyLength` per task. */
  private async list(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
      throw new RequestMalformedError('pageSize must be between 1 and 100');
    }
    if (params.status !== undefined && !KNOWN_STATES.has(params.status)) {
      throw new RequestMalformedError(`Invalid status filter: ${String(params.status)}`);
    }
    if (params.statusTimestampAfter && isNaN(Date.parse(params.statusTimestampAfter))) {
      throw new RequestMalformedError('statusTimestampAfter must be a valid ISO 8601 date string');
    }
    const response = await this.tasks.list({ ...params, pageSize }, context);
    const tasks = response.tasks.map((t) => withHistoryLength(t, params.historyLength));
    return { ...response, tasks };
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
    // The ids become keys of the task store and the harness ledger; PostgreSQL text cannot hold
    // U+0000, so every backend refuses it here, before any skill runs: one answer whatever the store.
    assertNoNul({
      contextId: message.contextId,
      taskId: message.taskId,
      ...Object.fromEntries(
        (message.referenceTaskIds ?? []).map((id, i) => [`referenceTaskIds[${i}]`, id]),
      ),
    });
    const task = message.taskId ? await this.tasks.load(message.taskId, context) : undefined;
    // A task still running (here or on another instance) takes no message (issue #15).
    if (task) await this.cluster.assertAcceptsMessage(task, context);
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
