import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import { TestServer, startTestServer } from '../utils/test-app';

const SPEC = `
name: run-log-e2e
execution_policy:
  allow_read: true
  allow_write: true
  allow_shell: false
`;
const PROMPT = 'write the notes file please';

describe('Harness run lines in the server log (issue #19)', () => {
  const lines: Record<string, unknown>[] = [];
  let fake: FakeOpenAiServer;
  let checkout: TempCheckout;
  let server: TestServer;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    checkout = tempCheckout({ 'README.md': '# demo\n' });
    const specFile = join(mkdtempSync(join(tmpdir(), 'sq-spec-')), 'spec.yaml');
    writeFileSync(specFile, SPEC);
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) {
          lines.push(JSON.parse(l) as Record<string, unknown>);
        }
        done();
      },
    });
    server = await startTestServer(
      {
        SUPERQODE_A2A_LOG_LEVEL: 'log',
        SUPERQODE_A2A_HARNESS_ENABLED: true,
        SUPERQODE_A2A_HARNESS_SPEC: specFile,
        SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
        SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
        SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
        SUPERQODE_A2A_WORKING_DIR: checkout.dir,
      },
      { logStream: sink },
    );
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
    checkout.remove();
  });

  it('logs one line at the start and one at the end of a run that wrote a file; the metric counts it', async () => {
    fake.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'n\n' } }] },
      { text: 'Wrote notes.txt.' },
    );
    const r = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage(PROMPT) }),
      V1,
    );
    const task = r.body.result.task as { id: string; contextId: string; status: { state: string } };
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');

    const runLines = lines.filter((l) => l.context === 'harness');
    expect(runLines).toEqual([
      expect.objectContaining({
        msg: 'harness run started',
        runId: expect.any(String),
        taskId: task.id,
        contextId: task.contextId,
      }),
      expect.objectContaining({
        msg: 'harness run ended',
        taskId: task.id,
        contextId: task.contextId,
        status: 'completed',
        filesChanged: 1,
        durationMs: expect.any(Number),
      }),
    ]);
    expect(runLines[1].runId).toBe(runLines[0].runId);
    expect(JSON.stringify(lines)).not.toContain(PROMPT);

    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^superqode_a2a_harness_runs_total\{outcome="completed"\} 1$/m);
  });
});
