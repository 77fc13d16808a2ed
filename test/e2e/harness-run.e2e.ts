import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, tool } from 'ai';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { join } from 'node:path';
import { all, collect, first, harnessSuite, specFrom, typesOf } from '../fakes/harness-fixtures';

const CODING_SPEC = `
name: e2e-coding
execution_policy:
  allow_read: true
  allow_write: true
  allow_shell: true
  allowed_commands: [cat, git, echo]
limits:
  task_timeout_seconds: 30
`;

describe('harness run (Core adapter, fake OpenAI-compatible model)', () => {
  const suite = harnessSuite({
    'greeting.txt': 'hello world\n',
    'AGENTS.md': 'Always be brief.\n',
  });

  async function session() {
    return suite.harness.controller.createSession({
      spec: specFrom(CODING_SPEC),
      workingDir: suite.checkout.dir,
      model: { provider: 'openai-compatible', model: 'fake-model', baseUrl: suite.fake.baseUrl },
    });
  }

  it('reads, edits and runs a command; the ledger holds the ordered events', async () => {
    suite.fake.enqueue(
      { text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'greeting.txt' } }] },
      {
        toolCalls: [
          {
            name: 'edit_file',
            arguments: { path: 'greeting.txt', old_string: 'world', new_string: 'harness' },
          },
        ],
      },
      { toolCalls: [{ name: 'bash', arguments: { command: 'cat greeting.txt' } }] },
      { text: 'Changed world to suite.harness.' },
    );
    const s = await session();
    const events = await collect(suite.harness.controller.send(s.id, 'Replace world with harness'));

    expect(typesOf(events)).toEqual([
      'run.started',
      'message.created',
      'model.requested',
      'message.delta',
      'model.completed',
      'tool.requested',
      'tool.completed',
      'model.requested',
      'model.completed',
      'tool.requested',
      'tool.completed',
      'model.requested',
      'model.completed',
      'tool.requested',
      'tool.completed',
      'model.requested',
      'message.delta',
      'model.completed',
      'message.created',
      'artifact.created',
      'run.completed',
    ]);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(readFileSync(join(suite.checkout.dir, 'greeting.txt'), 'utf8')).toBe('hello harness\n');

    const results = all(events, 'tool.completed');
    expect(results.map((r) => [r.data.tool_name, r.data.ok])).toEqual([
      ['read_file', true],
      ['edit_file', true],
      ['bash', true],
    ]);
    expect(results[2].data.output).toContain('hello harness');
    expect(first(events, 'artifact.created').data.paths).toEqual(['greeting.txt']);
    expect(first(events, 'run.completed').data).toMatchObject({
      status: 'succeeded',
      stop_reason: 'stop',
      text: 'Changed world to suite.harness.',
      iterations: 4,
    });
    const deltas = all(events, 'message.delta').map((e) => e.data.text);
    expect(deltas.join('')).toBe('Reading.Changed world to suite.harness.');

    // What the model was sent: tools offered, system prompt with AGENTS.md, tool results.
    const [firstRequest, , , last] = suite.fake.requests.map((r) => r.body);
    expect(firstRequest.stream).toBe(true);
    expect(firstRequest.tools?.map((t) => t.function.name)).toEqual([
      'read_file',
      'list_directory',
      'glob',
      'grep',
      'write_file',
      'edit_file',
      'bash',
    ]);
    expect(firstRequest.messages[0]).toMatchObject({ role: 'system' });
    expect(String(firstRequest.messages[0].content)).toContain('Always be brief.');
    const toolMessages = last.messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(3);
    expect(String(toolMessages[0].content)).toContain('hello world');

    const detail = await suite.harness.ledger.showRun(events[0].run_id);
    expect(detail.run).toMatchObject({
      session_id: s.id,
      status: 'succeeded',
      provider: 'openai-compatible',
      model: 'fake-model',
      prompt_preview: 'Replace world with harness',
      error: null,
    });
    expect(detail.run.ended_at).not.toBeNull();
    expect(detail.events).toEqual(events);
  });

  it('the fake model server also answers non-streaming chat completions', async () => {
    suite.fake.enqueue({
      text: 'Calling.',
      toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }],
    });
    const model = createOpenAICompatible({ name: 'fake', baseURL: suite.fake.baseUrl }).chatModel(
      'm',
    );
    const result = await generateText({
      model,
      prompt: 'say hi',
      tools: { echo: tool({ inputSchema: z.object({ text: z.string() }) }) },
    });
    expect(result.text).toBe('Calling.');
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toMatchObject([
      { toolCallId: 'c1', toolName: 'echo', input: { text: 'hi' } },
    ]);
    expect(suite.fake.requests[suite.fake.requests.length - 1].body.stream).toBeFalsy();
  });
});
