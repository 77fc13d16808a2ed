import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { harnessServerSuite } from '../fakes/harness-server';

const SPEC = `
name: routing-e2e
execution_policy:
  allow_read: true
  allow_write: true
  permission_rules:
    - { tool: write_file, action: ask }
`;

const send = (url: string, message: Record<string, unknown>) =>
  post(url, aJsonRpcRequest('SendMessage', { message }), V1).then((r) => r.body);

describe('A follow-up goes to the skill that owns its task or context, whatever its text', () => {
  const suite = harnessServerSuite(SPEC, { 'README.md': '# demo\n' });

  async function pausedTask() {
    suite.fake.enqueue({
      toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'hi\n' } }],
    });
    const r = await send(suite.server.url, aMessage('write hello.txt'));
    expect(r.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    return r.result.task;
  }

  it.each(['yes, which file?', 'which harness is open source?'])(
    'a reply "%s" on an INPUT_REQUIRED harness task stays with the harness (not the shortlist)',
    async (text) => {
      const task = await pausedTask();
      const r = await send(
        suite.server.url,
        aMessage(text, { taskId: task.id, contextId: task.contextId }),
      );
      const after = r.result.task;
      expect(after.id).toBe(task.id);
      expect(after.status.message.metadata.superqodeSkill).toBe('superqode-harness');
      expect((after.artifacts ?? []).map((a: { name: string }) => a.name)).not.toContain(
        'shortlist',
      );
    },
  );

  it('a reply carrying only the taskId stays with the harness', async () => {
    const task = await pausedTask();
    const r = await send(
      suite.server.url,
      aMessage('what harness should I use?', { taskId: task.id }),
    );
    expect(r.result.task.status.message.metadata.superqodeSkill).toBe('superqode-harness');
  });

  it('a new message in a harness context that reads like a question goes to the harness', async () => {
    suite.fake.enqueue({ text: 'first answer' }, { text: 'the harness answers again' });
    const first = await send(suite.server.url, aMessage('explain the repo'));
    const contextId = first.result.task.contextId;
    expect(first.result.task.status.message.metadata.superqodeSkill).toBe('superqode-harness');
    const before = suite.fake.requests.length;
    const next = await send(
      suite.server.url,
      aMessage('which harness is open source?', { contextId }),
    );
    expect(next.result.task.status.message.metadata.superqodeSkill).toBe('superqode-harness');
    expect(suite.fake.requests.length).toBe(before + 1);
  });

  it('a question in a fresh context still goes to the shortlist', async () => {
    const r = await send(suite.server.url, aMessage('which harness is open source?'));
    expect(r.result.task.status.message.metadata.superqodeSkill).toBe('harness-shortlist');
  });
});
