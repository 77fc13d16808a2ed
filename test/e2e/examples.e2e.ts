import { runSmoke } from '../../examples/a2a/smoke-client';
import { TestServer, startTestServer } from '../utils/test-app';

describe('examples/a2a/smoke-client.ts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('discovers the agent, sends a message and sees a completed task with a reply', async () => {
    const r = await runSmoke(server.url, 'which open source harness has approvals and a sandbox?');
    expect(r).toMatchObject({
      agent: 'SuperQode 1.0',
      interfaceUrl: server.url,
      state: 'TASK_STATE_COMPLETED',
      completed: true,
    });
    expect(r.reply).toMatch(/catalogue shortlist, not a measurement/);
  });

  it('reports a failure (not completed) against a URL where nothing listens', async () => {
    await expect(runSmoke('http://127.0.0.1:9', 'x')).rejects.toThrow();
  });
});
