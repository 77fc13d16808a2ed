import { Injectable } from '@nestjs/common';
import { TaskState } from '@a2a-js/sdk';
import type { AgentSkill, Task } from '@a2a-js/sdk';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RepoFactsModule } from '../../examples/custom-skill/repo-facts.module';
import { REPO_FACTS_SKILL_ID } from '../../examples/custom-skill/repo-facts.skill';
import {
  A2aSkill,
  A2aSkillProvider,
  artifact,
  createA2AServer,
  messageText,
  textPart,
} from '../../src/index';
import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { TestServer, freePort, startTestServer } from '../utils/test-app';

const skillIds = (card: { skills: { id: string }[] }) => card.skills.map((s) => s.id);
const sendText = (url: string, text: string, metadata?: Record<string, unknown>) =>
  post(
    url,
    aJsonRpcRequest('SendMessage', { message: aMessage(text), ...(metadata ? { metadata } : {}) }),
    V1,
  );
const artifactText = (task: { artifacts: { parts: { text?: string }[] }[] }) =>
  task.artifacts.flatMap((a) => a.parts.map((p) => p.text ?? '')).join('');

/** Issue #13: a team's skill module is served next to the built-ins with no change to a core file. */
describe('examples/custom-skill: a skill module imported next to AppModule', () => {
  let server: TestServer;
  let workingDir: string;
  beforeAll(async () => {
    workingDir = mkdtempSync(join(tmpdir(), 'sq-facts-'));
    writeFileSync(
      join(workingDir, 'package.json'),
      JSON.stringify({ name: 'facts-fixture', version: '1.2.3' }),
    );
    writeFileSync(join(workingDir, 'a.ts'), '');
    writeFileSync(join(workingDir, 'b.ts'), '');
    server = await startTestServer(
      { SUPERQODE_A2A_WORKING_DIR: workingDir },
      { imports: [RepoFactsModule] },
    );
  });
  afterAll(async () => {
    await server.close();
    rmSync(workingDir, { recursive: true, force: true });
  });

  it('the card lists repo-facts after the built-in shortlist, and /health serves it', async () => {
    const card = await get(`${server.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' });
    expect(skillIds(card.body)).toEqual(['harness-shortlist', REPO_FACTS_SKILL_ID]);
    expect((await get(`${server.url}/health`)).body.skills).toEqual([
      'harness-shortlist',
      REPO_FACTS_SKILL_ID,
    ]);
  });

  it('superqodeSkill routing reaches it, whatever the text; it answers from the working directory', async () => {
    const r = await sendText(server.url, 'Which open source harness has approvals?', {
      superqodeSkill: REPO_FACTS_SKILL_ID,
    });
    const task = r.body.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(artifactText(task)).toContain('Package: facts-fixture 1.2.3');
    expect(artifactText(task)).toContain('.ts 2');
    expect(task.artifacts[0].parts[1].data).toMatchObject({
      files: 3,
      package: { name: 'facts-fixture' },
    });
  });

  it('its phrases route to it; the built-in shortlist still answers its own questions', async () => {
    const facts = (await sendText(server.url, 'repo facts, please')).body.result.task;
    expect(facts.artifacts[0].name).toBe('repo-facts');
    const shortlist = (
      await sendText(server.url, 'Which open source harness has approvals and a sandbox?')
    ).body.result.task;
    expect(shortlist.artifacts[0].name).toBe('shortlist');
    expect(artifactText(shortlist)).toMatch(/catalogue shortlist, not a measurement/);
  });

  it('text no skill claims still goes to the shortlist (no harness served): the added skill is no catch-all', async () => {
    const r = (await sendText(server.url, 'hello there')).body.result.task;
    expect(r.artifacts[0].name).toBe('shortlist');
  });

  it('acceptedOutputModes text/plain leaves out its JSON part', async () => {
    const r = await post(
      server.url,
      aJsonRpcRequest('SendMessage', {
        message: aMessage('repo facts'),
        configuration: { acceptedOutputModes: ['text/plain'] },
      }),
      V1,
    );
    expect(
      r.body.result.task.artifacts[0].parts.map((p: object) => Object.keys(p).includes('data')),
    ).toEqual([false]);
  });
});

/** A skill instance handed to createA2AServer: the embedder's class carries an explicit order. */
@A2aSkillProvider({ order: 15 })
@Injectable()
class ShoutSkill extends A2aSkill {
  readonly id = 'shout';
  isServed(): boolean {
    return true;
  }
  matchesText(text: string): boolean {
    return text.startsWith('shout ');
  }
  card(): AgentSkill {
    return {
      id: 'shout',
      name: 'Shout',
      description: 'Repeats the message in capitals.',
      tags: ['example'],
      examples: ['shout hello'],
      inputModes: ['text/plain'],
      outputModes: ['text/plain'],
      securityRequirements: [],
    };
  }
  async execute(context: RequestContext, bus: ExecutionEventBus, task: Task): Promise<void> {
    const parts = [textPart(messageText(context.userMessage).toUpperCase())];
    const status = {
      state: TaskState.TASK_STATE_COMPLETED,
      message: undefined,
      timestamp: new Date().toISOString(),
    };
    bus.publish(
      AgentEvent.task({
        ...task,
        status,
        artifacts: [artifact({ artifactId: 'a1', name: 'shout', parts })],
      }),
    );
  }
  async cancel(): Promise<boolean> {
    return false;
  }
}

describe('createA2AServer({ skills }) (programmatic API)', () => {
  it('serves a skill module and a skill instance next to the built-ins, in card order', async () => {
    const server = createA2AServer({
      skills: [RepoFactsModule, new ShoutSkill()],
      taskStorePath: null,
      harnessStorePath: ':memory:',
      env: {
        SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 0,
        SUPERQODE_A2A_LOG_LEVEL: 'error',
        SUPERQODE_A2A_HARNESS_ENABLED: false,
      },
    });
    const url = await server.listen({ host: '127.0.0.1', port: await freePort() });
    try {
      const card = await get(`${url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' });
      expect(skillIds(card.body)).toEqual(['harness-shortlist', 'shout', REPO_FACTS_SKILL_ID]);
      expect(artifactText((await sendText(url, 'shout hello')).body.result.task)).toBe(
        'SHOUT HELLO',
      );
      const facts = await sendText(url, 'anything', { superqodeSkill: REPO_FACTS_SKILL_ID });
      expect(facts.body.result.task.artifacts[0].name).toBe('repo-facts');
    } finally {
      await server.close();
    }
  });

  it('refuses to start with two skills of one id (a custom skill cannot shadow a built-in)', async () => {
    const shadow = Object.assign(new ShoutSkill(), { id: 'harness-shortlist' });
    const server = createA2AServer({
      skills: [shadow],
      taskStorePath: null,
      harnessStorePath: ':memory:',
      env: { SUPERQODE_A2A_LOG_LEVEL: 'error' },
    });
    try {
      await expect(server.listen({ host: '127.0.0.1', port: await freePort() })).rejects.toThrow(
        /Two skills have the id 'harness-shortlist'/,
      );
    } finally {
      await server.close();
    }
  });

  it('refuses a bare skill class (pass its module or an instance)', () => {
    const server = createA2AServer({ skills: [ShoutSkill], taskStorePath: null });
    return expect(server.listen({ host: '127.0.0.1', port: 0 })).rejects.toThrow(
      /ShoutSkill is a skill class/,
    );
  });
});
