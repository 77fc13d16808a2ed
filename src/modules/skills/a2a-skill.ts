import type { AgentSkill } from '@a2a-js/sdk';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';

/**
 * One skill this agent serves: its Agent Card entry and how it runs a turn.
 * Abstract class used as the seam between {@link SkillRouterExecutor} and feature modules
 * (shortlist, harness); register implementations under the `A2A_SKILLS` token.
 * @see A2A specification §4.4.5 AgentSkill.
 */
export abstract class A2aSkill {
  /** Stable skill id, as advertised in the card and accepted in `superqodeSkill` metadata. */
  abstract readonly id: string;

  /** Whether this deployment serves the skill (config, bind policy). */
  abstract isServed(): boolean;

  /**
   * Narrow phrase match used when several skills are served and the request names none.
   * @param text - The user message's text parts joined with newlines.
   */
  abstract matchesText(text: string): boolean;

  /** The card entry (name, description, tags, examples, modes). */
  abstract card(): AgentSkill;

  /**
   * Runs one turn. The first event published must be the Task (the router publishes it
   * before calling, so implementations publish status and artifact updates only).
   * @param context - SDK request context: user message, task id, contextId, call context.
   * @param bus - Event bus; the turn must end with a terminal or interrupted status update.
   */
  abstract execute(context: RequestContext, bus: ExecutionEventBus): Promise<void>;

  /**
   * Stops a running turn; must lead to a TASK_STATE_CANCELED status update on `bus`.
   * @returns true when the skill had the task running and handled the cancel itself.
   */
  abstract cancel(taskId: string, bus: ExecutionEventBus): Promise<boolean>;
}
