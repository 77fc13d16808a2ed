import type { AgentSkill, Message, Task } from '@a2a-js/sdk';
import type { ExecutionEventBus, RequestContext, ServerCallContext } from '@a2a-js/sdk/server';
import type { A2aHttpException } from '../../common/errors/http-rejections';
import { STREAMING_STATE_KEY } from './skills.constants';

/**
 * One skill this agent serves: its Agent Card entry and how it runs a turn.
 * Abstract class used as the seam between {@link SkillRouterExecutor} and feature modules
 * (shortlist, harness, an embedder's own); register an implementation by decorating it with
 * `@A2aSkillProvider()` and listing it in its module's providers.
 * @see A2A specification §4.4.5 AgentSkill.
 */
export abstract class A2aSkill {
  /** Stable skill id, as advertised in the card and accepted in `superqodeSkill` metadata. */
  abstract readonly id: string;

  /**
   * Whether the skill answers whatever no other skill's phrases claim (the harness). When several
   * are served the last in card order wins; with none, the first served skill does.
   */
  readonly catchAll: boolean = false;

  /** Whether this deployment serves the skill (config, bind policy). */
  abstract isServed(): boolean;

  /** Why the skill is not served, for a request that names it (override to explain policy). */
  notServedReason(): string {
    return 'it is switched off on this deployment';
  }

  /**
   * Narrow phrase match used when several skills are served and the request names none (not
   * asked of a {@link catchAll} skill).
   * @param text - The user message's text parts joined with newlines.
   */
  abstract matchesText(text: string): boolean;

  /**
   * Checks a request the skill is about to serve, before any task exists (e.g. a context bound
   * to another caller). Default: accept.
   * @throws {A2AError} To refuse the request (rendered by the binding).
   */
  async authorize(_message: Message, _context: ServerCallContext): Promise<void> {}

  /**
   * Whether this caller may run the skill (issue #12). Default: everyone.
   * @returns undefined when it may; else the 401/403 rejection to answer with.
   */
  accessRefusal(_context: ServerCallContext): A2aHttpException | undefined {
    return undefined;
  }

  /**
   * Whether a message in `contextId` continues one of this caller's runs of this skill (so it
   * must pass {@link accessRefusal} even when its text would route elsewhere). Default: false.
   */
  async continues(_contextId: string, _context: ServerCallContext): Promise<boolean> {
    return false;
  }

  /**
   * Refuses a context this skill bound to another caller, whichever skill the message routes to
   * (the request handler asks every served skill when a message names or continues a context).
   * Default: accept.
   * @param contextId - The message's contextId, or that of the task it continues.
   * @throws {A2AError} To refuse the request (rendered by the binding).
   */
  async authorizeContext(_contextId: string, _context: ServerCallContext): Promise<void> {}

  /** The card entry (name, description, tags, examples, modes). */
  abstract card(): AgentSkill;

  /**
   * Runs one turn. The first event published must be a Task (SDK 1.3 rule): `task` as given, or
   * as the skill completes it — an instant skill publishes one finished Task and nothing else
   * (one store write instead of three).
   * @param context - SDK request context: user message, task id, contextId, call context.
   * @param bus - Event bus; the turn must end in a terminal or interrupted state.
   * @param task - The turn's Task: the stored one on a follow-up turn, else a new SUBMITTED Task
   *   holding the user message.
   * Events are taken by reference and may already be stored and replied to: never mutate an
   * object (or its nested metadata, status, parts, arrays) after publishing it; publish a new one
   * (see `LiveTask`). A mutation would not reach the stored row or the reply made from it.
   */
  abstract execute(context: RequestContext, bus: ExecutionEventBus, task: Task): Promise<void>;

  /**
   * Stops a running turn; must lead to a TASK_STATE_CANCELED status update on `bus`.
   * @returns true when the skill had the task running and handled the cancel itself.
   */
  abstract cancel(taskId: string, bus: ExecutionEventBus): Promise<boolean>;

  /**
   * CancelTask of a task no turn of this skill runs (e.g. one paused in INPUT_REQUIRED): the
   * skill releases what it keeps for the task (the harness closes the run waiting for approval as
   * cancelled). The router then publishes CANCELED. Default: nothing to release.
   */
  cancelPaused(_taskId: string): Promise<void> {
    return Promise.resolve();
  }
}

/** Whether the turn answers a streaming request (see {@link STREAMING_STATE_KEY}). */
export function isStreamingTurn(context: ServerCallContext | undefined): boolean {
  return context?.state.get(STREAMING_STATE_KEY) === true;
}
