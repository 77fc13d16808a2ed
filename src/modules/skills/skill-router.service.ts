import { Inject, Injectable } from '@nestjs/common';
import type { Message, SendMessageRequest, Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { A2aSkill } from './a2a-skill';
import { A2A_SKILLS, SKILL_METADATA_KEY, SKILL_METADATA_KEY_ALIAS } from './skills.constants';
import { messageText } from './message-parts';

/**
 * Chooses the skill that answers one turn.
 * Order: an explicit skill id in request metadata, then in message metadata
 * (`superqodeSkill`, alias `superqode_skill`); else, for a message that continues an existing
 * task (its `taskId`) or a skill's context ({@link A2aSkill.continues}), the skill that owns it,
 * whatever the text; else the first served skill whose narrow phrase
 * match accepts the text; else the last served skill (the catch-all). Phrase routing skips skills
 * the caller may not run (`accessRefusal`, issue #12); an explicit id is returned as named.
 */
@Injectable()
export class SkillRouter {
  constructor(@Inject(A2A_SKILLS) private readonly skills: A2aSkill[]) {}

  /** Skills this deployment serves, in card order. */
  served(): A2aSkill[] {
    return this.skills.filter((s) => s.isServed());
  }

  /** Skills this deployment knows but does not serve, each with why (for `/health`). */
  notServed(): { id: string; reason: string }[] {
    return this.skills.filter((s) => !s.isServed()).map((s) => ({ id: s.id, reason: s.notServedReason() }));
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
      const known = this.skills.find((s) => s.id === explicit);
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
    return candidates.find((s) => s.matchesText(text)) ?? candidates[candidates.length - 1];
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
  const value = task.metadata?.[SKILL_METADATA_KEY] ?? task.status?.message?.metadata?.[SKILL_METADATA_KEY];
  return typeof value === 'string' ? value : undefined;
}

/** `ServerCallContext.state` key: the skill the request handler resolved for this request. */
export const RESOLVED_SKILL_STATE_KEY = 'superqode.skill';

/** Records the resolved skill on the call context, so the executor does not resolve it again. */
export function rememberResolvedSkill(context: ServerCallContext, skill: A2aSkill): A2aSkill {
  context.state.set(RESOLVED_SKILL_STATE_KEY, skill);
  return skill;
}

/** The skill {@link rememberResolvedSkill} recorded on this call context, if any. */
export function resolvedSkill(context: ServerCallContext | undefined): A2aSkill | undefined {
  const value = context?.state.get(RESOLVED_SKILL_STATE_KEY);
  return value instanceof A2aSkill ? value : undefined;
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
