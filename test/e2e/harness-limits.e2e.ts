import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import { startTestServer } from '../utils/test-app';

// One server per file: two apps with a harness ledger in one jest process share TypeORM's
// data-source name registry.
describe('Harness skill limits (issue #5)', () => {
  let fake: FakeOpenAiServer;
  const checkout = tempCheckout({ 'README.md': '# demo\n' });
  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
  });
  afterAll(async () => {
    await fake.close();
    checkout.remove();
  });

  it('a run stopped by the max turns limit ends FAILED naming the limit', async () => {
    const limited = join(mkdtempSync(join(tmpdir(), 'sq-spec-')), 'limited.yaml');
    writeFileSync(
      limited,
      'name: limited\ninherits: read-only\nmodel_policy:\n  max_iterations: 1\n',
    );
    const local = await startTestServer({
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_SPEC: limited,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
      SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
      SUPERQODE_A2A_WORKING_DIR: checkout.dir,
    });
    try {
      fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] });
      const r = await post(
        local.url,
        aJsonRpcRequest('SendMessage', { message: aMessage('read the readme') }),
        V1,
      );
      expect(r.body.result.task.status.state).toBe('TASK_STATE_FAILED');
      expect(r.body.result.task.status.message.parts[0].text).toMatch(
        /max turns limit \(model_policy\.max_iterations = 1\)/,
      );
    } finally {
      await local.close();
    }
  });

  it('a graceful stop cancels a running turn and stores CANCELED before the stores close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-graceful-'));
    const env = {
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible' as const,
      SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
      SUPERQODE_A2A_WORKING_DIR: checkout.dir,
    };
    const first = await startTestServer(env, { dir });
    fake.enqueue({
      toolCalls: [
        { name: 'bash', arguments: { command: 'sleep 30 && echo graceful', timeout_seconds: 60 } },
      ],
    });
    const sent = await post(
      first.url,
      aJsonRpcRequest('SendMessage', {
        message: aMessage('run it'),
        configuration: { returnImmediately: true },
      }),
      V1,
    );
    const id = sent.body.result.task.id;
    for (let i = 0; i < 100; i++) {
      const t = await post(first.url, aJsonRpcRequest('GetTask', { id }), V1);
      if (t.body.result.metadata?.superqodeRunId) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await first.close({ keepDir: true });
    const second = await startTestServer(env, { dir });
    try {
      const got = await post(second.url, aJsonRpcRequest('GetTask', { id }), V1);
      expect(got.body.result.status.state).toBe('TASK_STATE_CANCELED');
    } finally {
      await second.close();
    }
  });
});
