import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { harnessServerSuite, sseResults } from '../fakes/harness-server';

const SPEC = `
name: approval-replies-e2e
execution_policy:
  allow_read: true
  allow_write: true
  permission_rules:
    - { tool: write_file, action: ask }
`;
const CONTENT = 'hello from the approved run\n';

const send = (
  url: string,
  message: Record<string, unknown>,
  configuration?: Record<string, unknown>,
) =>
  post(
    url,
    aJsonRpcRequest('SendMessage', { message, ...(configuration ? { configuration } : {}) }),
    V1,
  ).then((r) => r.body.result.task);

describe('Approval questions, exact replies and busy contexts over A2A (issue #16)', () => {
  const suite = harnessServerSuite(SPEC, { 'README.md': '# demo\n' });

  async function pausedTask(path: string, content = CONTENT) {
    suite.fake.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] });
    const task = await send(suite.server.url, aMessage(`write ${path}`));
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    return task;
  }

  it('the question names the write, its size in bytes and previews the content', async () => {
    const task = await pausedTask('hello.txt');
    const text: string = task.status.message.parts[0].text;
    expect(text).toContain(
      `write_file wants to write hello.txt (${Buffer.byteLength(CONTENT)} bytes)`,
    );
    expect(text).toContain('hello from the approved run');
    expect(text).toMatch(/"approve" \(or "yes", "y"\).*"deny" \(or "no", "n"\)/);
  });

  it('a turn that only asked for approval stores no empty answer artifact', async () => {
    const task = await pausedTask('quiet.txt');
    const answers = (task.artifacts ?? []).filter((a: { name: string }) => a.name === 'answer');
    expect(answers).toEqual([]);
  });

  it('a long write is previewed in bounded form, saying what was left out', async () => {
    const long = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const task = await pausedTask('long.txt', long);
    const text: string = task.status.message.parts[0].text;
    expect(text).toContain('line 19');
    expect(text).not.toContain('line 20\n');
    expect(text).toContain('80 more line(s) not shown');
  });

  it('"yes please" is not an approval: the task asks again and nothing is written', async () => {
    const task = await pausedTask('polite.txt');
    const again = await send(
      suite.server.url,
      aMessage('yes please', { taskId: task.id, contextId: task.contextId }),
    );
    expect(again.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(again.status.message.parts[0].text).toMatch(/^Not understood/);
    expect(again.status.message.metadata).toMatchObject({
      superqodeTool: 'write_file',
      superqodeToolTarget: 'polite.txt',
    });
    expect(existsSync(join(suite.checkout.dir, 'polite.txt'))).toBe(false);
    suite.fake.enqueue({ text: 'Wrote it.' });
    const done = await send(
      suite.server.url,
      aMessage(' Y ', { taskId: task.id, contextId: task.contextId }),
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(readFileSync(join(suite.checkout.dir, 'polite.txt'), 'utf8')).toBe(CONTENT);
  });

  it('a streamed approval reply reports the approved call starting and ending, with its target', async () => {
    const task = await pausedTask('streamed.txt');
    expect(task.status.message.metadata).toMatchObject({
      superqodeTool: 'write_file',
      superqodeToolTarget: 'streamed.txt',
      superqodeToolPhase: 'awaiting_approval',
    });
    suite.fake.enqueue({ text: 'Wrote it.' });
    const res = await fetch(suite.server.url, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify(
        aJsonRpcRequest('SendStreamingMessage', {
          message: aMessage('approve', { taskId: task.id, contextId: task.contextId }),
        }),
      ),
    });
    const texts = (await sseResults(res))
      .filter((r) => r.statusUpdate?.status?.state === 'TASK_STATE_WORKING')
      .map((r) => r.statusUpdate.status.message?.parts?.[0]?.text)
      .filter(Boolean);
    expect(texts).toEqual(['running write_file: streamed.txt', 'wrote streamed.txt']);
  });

  it('a new message to a context waiting for approval is rejected saying why and what to do', async () => {
    const task = await pausedTask('waiting.txt');
    const before = suite.fake.requests.length;
    const other = await send(
      suite.server.url,
      aMessage('something else', { contextId: task.contextId }),
    );
    expect(other.status.state).toBe('TASK_STATE_REJECTED');
    const text: string = other.status.message.parts[0].text;
    expect(text).toMatch(/waiting for an approval/);
    expect(text).toContain(`on task ${task.id}.`);
    expect(text).toMatch(/"approve" or "deny" on that task/);
    expect(text).not.toMatch(/unexpectedly/);
    expect(suite.fake.requests.length).toBe(before);
  });

  it('cancelling a task that waits for approval closes its run: the context takes a new message', async () => {
    const task = await pausedTask('dropped.txt');
    const cancelled = await post(
      suite.server.url,
      aJsonRpcRequest('CancelTask', { id: task.id }),
      V1,
    );
    expect(cancelled.body.result.status.state).toBe('TASK_STATE_CANCELED');
    suite.fake.enqueue({ text: 'Fresh start.' });
    const next = await send(suite.server.url, aMessage('hello', { contextId: task.contextId }));
    expect(next.status.state).toBe('TASK_STATE_COMPLETED');
    expect(existsSync(join(suite.checkout.dir, 'dropped.txt'))).toBe(false);
  });

  it('a new message to a context with a running task is rejected naming that task', async () => {
    suite.fake.enqueue({ hang: true });
    const before = suite.fake.requests.length;
    const running = await send(suite.server.url, aMessage('think for a long time'), {
      returnImmediately: true,
    });
    // The fake is the suite's: wait for this task's own model call, not the suite's first.
    for (let i = 0; i < 250 && suite.fake.requests.length === before; i++)
      await new Promise((r) => setTimeout(r, 20));
    const other = await send(
      suite.server.url,
      aMessage('and another thing', { contextId: running.contextId }),
    );
    expect(other.status.state).toBe('TASK_STATE_REJECTED');
    expect(other.status.message.parts[0].text).toContain(`task ${running.id} is still running`);
    await post(suite.server.url, aJsonRpcRequest('CancelTask', { id: running.id }), V1);
  });

  it('a message naming a running task is refused (-32004) and the task runs on untouched: no second turn (issue #15)', async () => {
    suite.fake.enqueue({ hang: true });
    const before = suite.fake.requests.length;
    const running = await send(suite.server.url, aMessage('think about it'), {
      returnImmediately: true,
    });
    // The fake is the suite's: wait for this task's own model call, not the suite's first.
    for (let i = 0; i < 250 && suite.fake.requests.length === before; i++)
      await new Promise((r) => setTimeout(r, 20));
    const calls = suite.fake.requests.length;
    expect(calls).toBe(before + 1);
    const followUp = aMessage('and another thing', {
      taskId: running.id,
      contextId: running.contextId,
    });
    const refused = await post(
      suite.server.url,
      aJsonRpcRequest('SendMessage', { message: followUp }),
      V1,
    );
    expect(refused.body.error.code).toBe(-32004);
    expect(refused.body.error.message).toContain(`Task ${running.id} is still running`);
    const rest = await fetch(`${suite.server.url}/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ message: followUp }),
    });
    expect(rest.status).toBe(400);
    expect(((await rest.json()) as { error: { status: string } }).error.status).toBe(
      'FAILED_PRECONDITION',
    );
    const got = await post(suite.server.url, aJsonRpcRequest('GetTask', { id: running.id }), V1);
    expect(got.body.result.status.state).toBe('TASK_STATE_WORKING');
    expect(got.body.result.history).toHaveLength(1);
    expect(suite.fake.requests.length).toBe(calls);
    const cancelled = await post(
      suite.server.url,
      aJsonRpcRequest('CancelTask', { id: running.id }),
      V1,
    );
    expect(cancelled.body.result.status.state).toBe('TASK_STATE_CANCELED');
  });
});
