import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { harnessServerSuite, sseResults } from '../fakes/harness-server';

const SPEC = `
name: answer-parts-e2e
execution_policy:
  allow_read: true
`;
/** 1,200 characters: the fake model streams them as 200 deltas of 6. */
const LONG_ANSWER = Array.from({ length: 200 }, (_, i) => `w${String(i).padStart(4, '0')} `).join(
  '',
);

describe('The stored answer artifact holds the answer as one text part (issue #16)', () => {
  const suite = harnessServerSuite(SPEC, { 'README.md': '# demo\n' });

  it('a 200-delta answer is one text part in the SendMessage result and in GetTask', async () => {
    suite.fake.enqueue({ text: LONG_ANSWER });
    const sent = await post(
      suite.server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('explain the repo') }),
      V1,
    );
    const task = sent.body.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const answer = (t: { artifacts: { name: string; parts: { text: string }[] }[] }) =>
      t.artifacts.find((a) => a.name === 'answer')!;
    expect(answer(task).parts).toEqual([expect.objectContaining({ text: LONG_ANSWER })]);
    const stored = await post(suite.server.url, aJsonRpcRequest('GetTask', { id: task.id }), V1);
    expect(answer(stored.body.result).parts).toHaveLength(1);
    expect(answer(stored.body.result).parts[0].text).toBe(LONG_ANSWER);
  });

  it('a streaming client still receives the answer chunk by chunk; the stored task has one part', async () => {
    suite.fake.enqueue({ text: LONG_ANSWER });
    const res = await fetch(suite.server.url, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify(
        aJsonRpcRequest('SendStreamingMessage', { message: aMessage('explain the repo') }),
      ),
    });
    const results = await sseResults(res);
    const chunks = results.filter((r) => r.artifactUpdate?.artifact?.name === 'answer');
    expect(chunks.length).toBeGreaterThanOrEqual(200);
    expect(chunks.map((c) => c.artifactUpdate.artifact.parts[0].text).join('')).toBe(LONG_ANSWER);
    const taskId = chunks[0].artifactUpdate.taskId;
    const stored = await post(suite.server.url, aJsonRpcRequest('GetTask', { id: taskId }), V1);
    const answer = stored.body.result.artifacts.find((a: { name: string }) => a.name === 'answer');
    expect(answer.parts).toHaveLength(1);
  });
});
