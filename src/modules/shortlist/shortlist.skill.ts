import { Inject, Injectable, Logger } from '@nestjs/common';
import { callerTier } from '../auth/callers';
import { mergeConstraints } from './model-constraints';
import { parseConstraints } from './request-constraints';
import type { ShortlistConstraints } from './request-constraints';
import { ShortlistRequestReader } from './shortlist-request-reader';
import { TaskState } from '@a2a-js/sdk';
import type { AgentSkill, Part, Task } from '@a2a-js/sdk';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import type { ConfigType } from '@nestjs/config';
import { shortlistConfig } from '../../config/namespaces';
import { Clock, IdGenerator } from '../../common/runtime/clock';
import { A2aSkill, isStreamingTurn } from '../skills/a2a-skill';
import { A2aSkillProvider, SHORTLIST_SKILL_ORDER } from '../skills/a2a-skill-provider.decorator';
import { acceptsOutput } from '../skills/content-modes';
import {
  agentMessage,
  artifact,
  dataPart,
  messageText,
  statusUpdate,
  textPart,
} from '../skills/message-parts';
import { ShortlistService } from './shortlist.service';
import type { ShortlistAnswer } from './shortlist.service';
import { entryNames, isShortlistQuestion, namePattern } from './shortlist-phrases';

/** Skill id advertised in the card and accepted in `superqodeSkill` metadata. */
export const SHORTLIST_SKILL_ID = 'harness-shortlist';

/**
 * `harness-shortlist`: answers "which coding harness fits me" from the shipped Hub catalogue.
 * Reply: one artifact `shortlist` with a text part (human-readable) and a data part (structured
 * entries); the completed status message carries camelCase metadata `superqodeSkill`,
 * `superqodeShortlist` (ranked ids) and `superqodeUnderstood` (true when the model read the request).
 */
@A2aSkillProvider({ order: SHORTLIST_SKILL_ORDER })
@Injectable()
export class ShortlistSkill extends A2aSkill {
  readonly id = SHORTLIST_SKILL_ID;
  private readonly logger = new Logger(ShortlistSkill.name);
  /** Catalogue entry names, for comparison questions ("claude code vs codex"). */
  private readonly names: RegExp;

  constructor(
    private readonly shortlist: ShortlistService,
    @Inject(shortlistConfig.KEY) private readonly config: ConfigType<typeof shortlistConfig>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly reader: ShortlistRequestReader,
  ) {
    super();
    this.names = namePattern(entryNames(shortlist.catalogueEntries()));
  }

  /**
   * Constraints of a request: keyed and operator callers' requests are read by the model first
   * (when configured); anonymous callers always get the keyword parser (free tier). Any model
   * failure falls back to the keyword parser.
   * @returns The constraints and whether the model read them (`superqodeUnderstood`).
   */
  private async understand(
    text: string,
    tier: string,
  ): Promise<{ constraints: ShortlistConstraints; understood: boolean }> {
    const keyword = parseConstraints(text);
    if (tier === 'anonymous' || !this.config.understandRequests)
      return { constraints: keyword, understood: false };
    try {
      return {
        constraints: mergeConstraints(keyword, await this.reader.read(text)),
        understood: true,
      };
    } catch (err) {
      this.logger.warn(`Model reading failed, keyword parser used: ${(err as Error).message}`);
      return { constraints: keyword, understood: false };
    }
  }

  isServed(): boolean {
    return this.config.enabled;
  }

  /** Questions about choosing or comparing coding agents/harnesses (see shortlist-phrases.ts). */
  matchesText(text: string): boolean {
    return isShortlistQuestion(text, this.names);
  }

  card(): AgentSkill {
    return {
      id: SHORTLIST_SKILL_ID,
      name: 'Harness shortlist',
      description:
        'Recommends coding-agent harnesses from the SuperQode Hub catalogue for stated needs ' +
        '(open source, licence, local models, editor, ACP, policies). A catalogue shortlist, not a measurement.',
      tags: ['coding-agents', 'harness', 'recommendation', 'catalogue'],
      examples: [
        'Which open source harness has approvals and a sandbox?',
        'Which harness is an open source ACP agent with an MIT licence?',
        'Shortlist Apache-licensed coding agents that run in the terminal',
      ],
      inputModes: ['text/plain', 'text/markdown'],
      outputModes: ['text/plain', 'application/json'],
      securityRequirements: [],
    };
  }

  /**
   * Blocking: one event, the Task COMPLETED with the shortlist artifact and status message (one
   * store write). Streaming: the Task (WORKING), the artifact as an artifact update, then the
   * COMPLETED status update (0.3: `final: true`), so streaming clients see the answer arrive.
   * Parts follow `acceptedOutputModes`: text only → no data part.
   */
  async execute(context: RequestContext, bus: ExecutionEventBus, task: Task): Promise<void> {
    const { taskId, contextId } = context;
    const streaming = isStreamingTurn(context.context);
    if (streaming) {
      const working = {
        state: TaskState.TASK_STATE_WORKING,
        message: undefined,
        timestamp: this.clock.isoNow(),
      };
      bus.publish(AgentEvent.task({ ...task, status: working }));
    }
    const text = messageText(context.userMessage);
    const { constraints, understood } = await this.understand(text, callerTier(context.context));
    const answer = this.shortlist.answer(text, constraints);
    const accepted = context.request.configuration?.acceptedOutputModes ?? [];
    const shortlist = artifact({
      artifactId: this.ids.next(),
      name: 'shortlist',
      parts: answerParts(answer, accepted),
    });
    const summary = `Shortlist of ${answer.entries.length} harness(es) from the Hub catalogue.`;
    const message = agentMessage({
      messageId: this.ids.next(),
      contextId,
      taskId,
      parts: [textPart(summary)],
      metadata: {
        superqodeSkill: SHORTLIST_SKILL_ID,
        superqodeShortlist: answer.entries.map((e) => e.id),
        superqodeUnderstood: understood,
      },
    });
    const state = TaskState.TASK_STATE_COMPLETED;
    if (!streaming) {
      const status = { state, message, timestamp: this.clock.isoNow() };
      bus.publish(AgentEvent.task({ ...task, status, artifacts: [...task.artifacts, shortlist] }));
      return;
    }
    const update = {
      taskId,
      contextId,
      artifact: shortlist,
      append: false,
      lastChunk: true,
      metadata: undefined,
    };
    bus.publish(AgentEvent.artifactUpdate(update));
    bus.publish(
      AgentEvent.statusUpdate(
        statusUpdate({ taskId, contextId, state, timestamp: this.clock.isoNow(), message }),
      ),
    );
  }

  /** The shortlist answers synchronously; nothing to stop, the router publishes CANCELED. */
  async cancel(): Promise<boolean> {
    return false;
  }
}

/**
 * The answer's parts in the accepted output modes: the text (`text/plain`) and the structured data
 * (`application/json`); the request handler has refused requests that accept neither.
 */
function answerParts(answer: ShortlistAnswer, acceptedOutputModes: readonly string[]): Part[] {
  const data = {
    entries: answer.entries,
    // Held back, not ranked: names only (the full views tripled the payload of every answer).
    supplied: answer.supplied.map(({ id, name, readiness }) => ({ id, name, readiness })),
    constraints: answer.constraints,
    notes: answer.notes,
    catalogueVersion: answer.catalogueVersion,
  };
  const parts: Part[] = [];
  if (acceptsOutput('text/plain', acceptedOutputModes)) parts.push(textPart(answer.text));
  if (acceptsOutput('application/json', acceptedOutputModes)) parts.push(dataPart(data));
  return parts;
}
