import { Injectable } from '@nestjs/common';
import type { Message, SendMessageRequest, Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { A2aSkill } from './a2a-skill';
import { SkillRegistry } from './skill-registry.service';
import {
  ROUTED_SKILL_STATE_KEY,
  SKILL_METADATA_KEY,
  SKILL_METADATA_KEY_ALIAS,
} from './skills.constants';
import { messageText } from './message-parts';

/**
 * Chooses the skill that answers one turn.
 * Order: an explicit skill id in request metadata, then in message metadata
 * (`superqodeSkill`, alias `superqode_skill`); else, for a message that continues an existing
 * task (its `taskId`) or a skill's context ({@link A2aSkill.continues}), the skill that owns it,
 * whatever the text; else the first served skill, in card order, whose narrow phrase match
 * accepts the text; else the last served catch-all skill (the harness); else the first served
 * skill (the shortlist). Phrase routing skips skills the caller may not run (`accessRefusal`,
 * issue #12); an explicit id is returned as named.
 */
@Injectable()
export class SkillRouter {
  constructor(private readonly registry: SkillRegistry) {}

  /** Skills this deployment serves, in card order. */
  served(): A2aSkill[] {
    return this.registry.all().filter((s) => s.isServed());
  }

  /** Skills this deployment knows but does not serve, each with why (for `/health`). */
  notServed(): { id: string; reason: string }[] {
    return this.registry
      .all()
      .filter((s) => !s.isServed())
      .map((s) => ({ id: s.id, reason: s.notServedReason() }));
  }

  /**
   * {@link resolve}, once per SendMessage: the result is kept on the call context, so the request
   * handler's checks and the executor share one routing decision (and one set of phrase matches).
   * @param message - The user message; its `messageId` keys the remembered choice.
   * @throws {RequestMalformedError} As {@link resolve}.
   */
  async route(
    request: Pick<SendMessageRequest, 'metadata'>,
    message: Message,
    context: ServerCallContext,
    task?: Task,
  ): Promise<A2aSkill> {
    const routed = context.state.get(ROUTED_SKILL_STATE_KEY) as RoutedSkill | undefined;
    if (routed && routed.messageId === message.messageId) return routed.skill;
    const skill = await this.resolve(request, message, context, task);
    context.state.set(ROUTED_SKILL_STATE_KEY, {
      messageId: message.messageId,
      skill,
    } satisfies RoutedSkill);
    return skill;
  }

  /**
   * Resolves the skill for a SendMessage request.
   * @param context - The caller's call context; without it every served skill is a candidate.
   * @param task - The stored task the message continues (`message.taskId`), if any: its owner
   *   skill (task metadata `superqodeSkill`) answers the turn.
   * @throws {RequestMalformedError} The request names a skill id this deployment does not serve
   *   (the message lists the served ids), or no skill is served at all.
   */
  async resolve(
    request: Pick<SendMessageRequest, 'metadata'>,
    message: Message | undefined,
    context?: ServerCallContext,
    task?: Task,
  ): Promise<A2aSkill> {
    const served = this.served();
    if (served.length === 0) throw new RequestMalformedError('This agent serves no skill.');
    const explicit =
      explicitSkillId(request.metadata) ?? explicitSkillId(message?.metadata ?? undefined);
    if (explicit !== undefined) {
      const skill = served.find((s) => s.id === explicit);
      const known = this.registry.all().find((s) => s.id === explicit);
      if (!skill && known) {
        throw new RequestMalformedError(
          `Skill '${explicit}' is not served: ${known.notServedReason()}. This agent serves: ${served.map((s) => s.id).join(', ')}.`,
        );
      }
      if (!skill) {
        throw new RequestMalformedError(
          `Unknown skill '${explicit}'. This agent serves: ${served.map((s) => s.id).join(', ')}.`,
        );
      }
      return skill;
    }
    const owner = await this.owner(served, message, context, task);
    if (owner) return owner;
    const open = context ? served.filter((s) => !s.accessRefusal(context)) : served;
    const candidates = open.length > 0 ? open : served;
    if (candidates.length === 1) return candidates[0];
    const text = message ? messageText(message) : '';
    return (
      candidates.find((s) => !s.catchAll && s.matchesText(text)) ??
      candidates.filter((s) => s.catchAll).pop() ??
      candidates[0]
    );
  }

  /** The served skill that owns the task or context the message continues (routing by text skipped). */
  private async owner(
    served: A2aSkill[],
    message: Message | undefined,
    context: ServerCallContext | undefined,
    task: Task | undefined,
  ): Promise<A2aSkill | undefined> {
    const ownerId = task ? taskSkillId(task) : undefined;
    const byTask = ownerId ? served.find((s) => s.id === ownerId) : undefined;
    if (byTask) return byTask;
    const contextId = message?.contextId || task?.contextId;
    if (!contextId || !context || served.length < 2) return undefined;
    for (const skill of served) if (await skill.continues(contextId, context)) return skill;
    return undefined;
  }
}

/** The skill a stored task records (task metadata, else its status message's metadata). */
function taskSkillId(task: Task): string | undefined {
  const value =
    task.metadata?.[SKILL_METADATA_KEY] ?? task.status?.message?.metadata?.[SKILL_METADATA_KEY];
  return typeof value === 'string' ? value : undefined;
}

/** The routing decision kept on a call context. */
interface RoutedSkill {
  messageId: string;
  skill: A2aSkill;
}

function explicitSkillId(metadata: Record<string, unknown> | undefined): string | undefined {
  if (!metadata) return undefined;
  const value = metadata[SKILL_METADATA_KEY] ?? metadata[SKILL_METADATA_KEY_ALIAS];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RequestMalformedError(`${SKILL_METADATA_KEY} must be a non-empty string.`);
  }
  return value.trim();
}
