import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { TaskState } from '@a2a-js/sdk';
import type { AgentSkill, Task } from '@a2a-js/sdk';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import {
  A2aSkill,
  A2aSkillProvider,
  acceptsOutput,
  agentMessage,
  artifact,
  dataPart,
  harnessConfig,
  textPart,
} from '../../src/index';
import { readRepoFacts, repoFactsText } from './repo-facts';

/** Id of the example skill, as listed in the card and named in `superqodeSkill` metadata. */
export const REPO_FACTS_SKILL_ID = 'repo-facts';

/**
 * `repo-facts`: answers with facts about the server's working directory (package name and
 * version, file counts by extension), read without git and without opening source files.
 * An instant skill: it publishes one finished Task (SDK 1.3: the first event is a Task).
 * Registered by `@A2aSkillProvider()`; no `order`, so the card lists it after the built-ins.
 */
@A2aSkillProvider()
@Injectable()
export class RepoFactsSkill extends A2aSkill {
  readonly id = REPO_FACTS_SKILL_ID;

  constructor(
    @Inject(harnessConfig.KEY) private readonly harness: ConfigType<typeof harnessConfig>,
  ) {
    super();
  }

  isServed(): boolean {
    return true;
  }

  /** "repo facts", "repository facts", "facts about this repo". */
  matchesText(text: string): boolean {
    return /\brepo(sitory)? facts\b|\bfacts about (this|the) repo(sitory)?\b/i.test(text);
  }

  card(): AgentSkill {
    return {
      id: REPO_FACTS_SKILL_ID,
      name: 'Repository facts',
      description:
        "Facts about the server's working directory: package name and version, file counts by extension.",
      tags: ['repository', 'facts', 'example'],
      examples: ['Repo facts, please', 'What are the facts about this repo?'],
      inputModes: ['text/plain'],
      outputModes: ['text/plain', 'application/json'],
      securityRequirements: [],
    };
  }

  async execute(context: RequestContext, bus: ExecutionEventBus, task: Task): Promise<void> {
    const facts = readRepoFacts(this.harness.workingDir);
    const accepted = context.request.configuration?.acceptedOutputModes ?? [];
    const parts = [textPart(repoFactsText(facts))];
    if (acceptsOutput('application/json', accepted)) parts.push(dataPart(facts));
    const { taskId, contextId } = context;
    const message = agentMessage({
      messageId: randomUUID(),
      contextId,
      taskId,
      parts: [textPart('Repository facts.')],
    });
    const status = {
      state: TaskState.TASK_STATE_COMPLETED,
      message,
      timestamp: new Date().toISOString(),
    };
    const answer = artifact({ artifactId: randomUUID(), name: 'repo-facts', parts });
    bus.publish(AgentEvent.task({ ...task, status, artifacts: [...task.artifacts, answer] }));
  }

  /** Instant: nothing runs to stop; the router publishes CANCELED. */
  async cancel(): Promise<boolean> {
    return false;
  }
}
