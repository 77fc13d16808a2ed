import { Role } from '@a2a-js/sdk';
import type { AgentCard, Message, SendMessageRequest, StreamResponse } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import type { AgentExecutor, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { Task } from '@a2a-js/sdk';
import { SkillRouter, rememberResolvedSkill } from '../skills/skill-router.service';
import { rememberSkillAccessRefusal } from '../skills/skill-access';
import type { A2aHttpException } from '../../common/errors/http-rejections';
import { checkContentModes } from '../skills/content-modes';
import { STREAMING_STATE_KEY } from '../skills/skills.constants';

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
  constructor(
    card: AgentCard,
    private readonly tasks: TaskStore,
    executor: AgentExecutor,
    private readonly router: SkillRouter,
  ) {
    super(card, tasks, executor);
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
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
    const skill = rememberResolvedSkill(context, await this.router.resolve(params, message, context, task));
    const refusal = skill.accessRefusal(context) ?? (await this.continuationRefusal(message, context));
    if (refusal) throw rememberSkillAccessRefusal(context, refusal);
    checkContentModes(skill.card(), message, params.configuration?.acceptedOutputModes ?? []);
    await skill.authorize(message, context);
  }

  /**
   * A follow-up in a context where this caller has runs of a skill it may no longer run (e.g. an
   * INPUT_REQUIRED approval reply after the access setting changed) is refused like a request
   * naming that skill, whatever its text. Looked up only for callers some skill refuses.
   */
  private async continuationRefusal(
    message: Message,
    context: ServerCallContext,
  ): Promise<A2aHttpException | undefined> {
    const guarded = this.router.served().filter((s) => s.accessRefusal(context));
    if (guarded.length === 0) return undefined;
    const contextId =
      message.contextId ||
      (message.taskId ? (await this.tasks.load(message.taskId, context))?.contextId : undefined);
    if (!contextId) return undefined;
    for (const skill of guarded) {
      if (await skill.continues(contextId, context)) return skill.accessRefusal(context);
    }
    return undefined;
  }
}
