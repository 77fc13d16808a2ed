import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { all, collect, first, harnessSuite, specFrom } from '../fakes/harness-fixtures';

const READ_ONLY_SPEC = `
name: e2e-read-only
execution_policy: { allow_read: true, allow_write: false, allow_shell: false }
`;

const SHELL_SPEC = `
name: e2e-shell
execution_policy:
  allow_read: true
  allow_shell: true
  allowed_commands: [echo]
  permission_rules:
    - { tool: read_file, pattern: 'secret*', action: deny }
`;

describe('harness policy refusals (ledger after each)', () => {
  const suite = harnessSuite({ 'notes.txt': 'notes\n', 'secret.txt': 'hunter2\n' });

  async function run(specYaml: string, prompt: string) {
    const s = await suite.harness.controller.createSession({
      spec: specFrom(specYaml),
      workingDir: suite.checkout.dir,
      model: { provider: 'openai-compatible', model: 'fake-model', baseUrl: suite.fake.baseUrl },
    });
    const requestsBefore = suite.fake.requests.length;
    const events = await collect(suite.harness.controller.send(s.id, prompt));
    return { events, requests: suite.fake.requests.slice(requestsBefore).map((r) => r.body) };
  }

  it('does not offer write tools when writes are off, and refuses a write call anyway', async () => {
    suite.fake.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'x' } }] },
      { text: 'I cannot write files here.' },
    );
    const { events, requests } = await run(READ_ONLY_SPEC, 'create new.txt');

    expect(requests[0].tools?.map((t) => t.function.name)).toEqual([
      'read_file',
      'list_directory',
      'glob',
      'grep',
    ]);
    expect(first(events, 'tool.requested').data).toMatchObject({
      tool_name: 'write_file',
      decision: 'deny',
    });
    expect(first(events, 'tool.completed').data).toMatchObject({
      ok: false,
      refused: 'policy',
      output: 'denied by policy: tool write_file is not offered',
    });
    expect(existsSync(join(suite.checkout.dir, 'new.txt'))).toBe(false);
    const toolResult = requests[1].messages.find((m) => m.role === 'tool');
    expect(String(toolResult?.content)).toContain('denied by policy');
    expect(events.some((e) => e.type === 'artifact.created')).toBe(false);

    const { run: stored, events: recorded } = await suite.harness.ledger.showRun(events[0].run_id);
    expect(stored.status).toBe('succeeded');
    expect(recorded.map((e) => e.type)).toContain('tool.completed');
  });

  it('refuses a command outside allowed_commands without running it', async () => {
    suite.fake.enqueue(
      { toolCalls: [{ name: 'bash', arguments: { command: 'touch made-by-bash.txt' } }] },
      { text: 'Refused.' },
    );
    const { events } = await run(SHELL_SPEC, 'touch a file');

    expect(first(events, 'tool.requested').data).toMatchObject({
      tool_name: 'bash',
      target: 'touch made-by-bash.txt',
    });
    const result = first(events, 'tool.completed').data;
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/^refused: .*touch/);
    expect(existsSync(join(suite.checkout.dir, 'made-by-bash.txt'))).toBe(false);
    expect((await suite.harness.ledger.getRun(events[0].run_id)).status).toBe('succeeded');
  });

  it('answers "denied by policy" for a permission rule that denies, and goes on', async () => {
    suite.fake.enqueue(
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'secret.txt' } },
          { name: 'read_file', arguments: { path: 'notes.txt' } },
        ],
      },
      { text: 'Read the notes only.' },
    );
    const { events, requests } = await run(SHELL_SPEC, 'read both files');

    const results = all(events, 'tool.completed').map((e) => e.data);
    expect(results.map((r) => [r.output.trim(), r.refused])).toEqual([
      ['denied by policy', 'policy'],
      ['notes', null],
    ]);
    const sent = JSON.stringify(requests[1].messages);
    expect(sent).not.toContain('hunter2');
    expect(first(events, 'run.completed').data.status).toBe('succeeded');
  });
});
