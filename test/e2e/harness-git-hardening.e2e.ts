import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { git, tempCheckout } from '../fakes/harness-fixtures';
import { startTestServer } from '../utils/test-app';

// #12.5: a checkout's own git config must not make the server's git status/diff run commands,
// whatever the sandbox (here "local", shell off: the model can only edit files).
describe("The server's git commands ignore the checkout's command hooks (issue #12)", () => {
  let fake: FakeOpenAiServer;
  const checkout = tempCheckout({ 'README.md': '# demo\n' });
  const scratch = mkdtempSync(join(tmpdir(), 'sq-git-hardening-'));
  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
  });
  afterAll(async () => {
    await fake.close();
    checkout.remove();
  });

  it('a core.fsmonitor or diff driver planted in .git/config never runs on git status/diff', async () => {
    const marker = join(scratch, 'ran');
    git(checkout.dir, 'config', 'core.fsmonitor', `touch ${marker}.fsmonitor; false`);
    git(checkout.dir, 'config', 'diff.external', `sh -c 'touch ${marker}.external'`);
    git(checkout.dir, 'config', 'core.hooksPath', scratch);
    const spec = join(scratch, 'writer.yaml');
    writeFileSync(
      spec,
      'name: writer\ninherits: read-only\nexecution_policy: {sandbox: local, allow_write: true}\n',
    );
    const server = await startTestServer({
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_SPEC: spec,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
      SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
      SUPERQODE_A2A_WORKING_DIR: checkout.dir,
    });
    try {
      fake.enqueue(
        {
          toolCalls: [
            { name: 'write_file', arguments: { path: 'README.md', content: '# changed\n' } },
          ],
        },
        { text: 'done' },
      );
      const r = await post(
        server.url,
        aJsonRpcRequest('SendMessage', { message: aMessage('edit the readme') }),
        V1,
      );
      const task = r.body.result.task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      // git status and git diff did run: the diff artifact shows the edit.
      const diff = task.artifacts.find((a: { name: string }) => a.name === 'changes.diff');
      expect(diff.parts[0].text).toMatch(/\+# changed/);
      expect(existsSync(`${marker}.fsmonitor`)).toBe(false);
      expect(existsSync(`${marker}.external`)).toBe(false);
    } finally {
      await server.close();
    }
  });
});
