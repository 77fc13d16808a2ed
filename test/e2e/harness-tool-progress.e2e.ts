import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { harnessServerSuite, sseResults } from '../fakes/harness-server';

const SPEC = `
name: progress-e2e
execution_policy:
  allow_read: true
  allow_write: true
  allow_shell: true
  sandbox: local
`;

describe('Tool progress as WORKING status updates on a stream (issue #16)', () => {
  const suite = harnessServerSuite(SPEC, { 'README.md': '# demo\n' });

  it('each tool call reports its start and end, in order, with tool and target in metadata', async () => {
    suite.fake.enqueue(
      { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo checking' } }] },
      {
        toolCalls: [
          {
            id: 'c2',
            name: 'write_file',
            arguments: { path: 'src/a.ts', content: 'export const a = 1;\n' },
          },
        ],
      },
      { text: 'Done.' },
    );
    const res = await fetch(suite.server.url, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify(
        aJsonRpcRequest('SendStreamingMessage', { message: aMessage('check and write src/a.ts') }),
      ),
    });
    const results = await sseResults(res);
    const progress = results
      .filter(
        (r) =>
          r.statusUpdate?.status?.state === 'TASK_STATE_WORKING' && r.statusUpdate.status.message,
      )
      .map((r) => r.statusUpdate.status.message);
    expect(progress.map((m) => m.parts[0].text)).toEqual([
      'running bash: echo checking',
      'bash finished: echo checking',
      'running write_file: src/a.ts',
      'wrote src/a.ts',
    ]);
    expect(progress[0].metadata).toMatchObject({
      superqodeTool: 'bash',
      superqodeToolTarget: 'echo checking',
      superqodeToolPhase: 'started',
    });
    expect(progress[3].metadata).toMatchObject({
      superqodeTool: 'write_file',
      superqodeToolTarget: 'src/a.ts',
      superqodeToolPhase: 'completed',
      superqodeToolOk: true,
    });
    expect(results.at(-1)!.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    // The progress lines come between the task and the answer's completion.
    const lastProgress = results.findIndex(
      (r) => r.statusUpdate?.status?.message?.parts?.[0]?.text === 'wrote src/a.ts',
    );
    const answer = results.findIndex((r) => r.artifactUpdate?.artifact?.name === 'answer');
    expect(lastProgress).toBeLessThan(answer);
  });

  it('a blocking caller polling GetTask during a long command sees what runs', async () => {
    suite.fake.enqueue({
      toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30', timeout_seconds: 60 } }],
    });
    const sent = await post(
      suite.server.url,
      aJsonRpcRequest('SendMessage', {
        message: aMessage('wait'),
        configuration: { returnImmediately: true },
      }),
      V1,
    );
    const id = sent.body.result.task.id;
    let text = '';
    for (let i = 0; i < 200 && text !== 'running bash: sleep 30'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      text =
        (await post(suite.server.url, aJsonRpcRequest('GetTask', { id }), V1)).body.result.status
          .message?.parts?.[0]?.text ?? '';
    }
    expect(text).toBe('running bash: sleep 30');
    await post(suite.server.url, aJsonRpcRequest('CancelTask', { id }), V1);
  });
});
