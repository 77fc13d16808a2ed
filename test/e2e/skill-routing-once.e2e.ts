import { SkillRouter } from '../../src/modules/skills/skill-router.service';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { TestServer, startTestServer } from '../utils/test-app';

/** Issue #13: a SendMessage is routed once; the executor reuses the request handler's choice. */
describe('Skill routing runs once per SendMessage', () => {
  let server: TestServer;
  let resolve: jest.SpyInstance;
  beforeAll(async () => {
    server = await startTestServer();
    resolve = jest.spyOn(server.app.get(SkillRouter), 'resolve');
  });
  afterAll(() => server.close());
  beforeEach(() => resolve.mockClear());

  it('JSON-RPC SendMessage: one routing decision, and the task completes', async () => {
    const r = await post(
      server.url,
      aJsonRpcRequest('SendMessage', {
        message: aMessage('Which open source harness has approvals?'),
      }),
      V1,
    );
    expect(r.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  it('REST message:stream: one routing decision for the whole stream', async () => {
    const res = await fetch(`${server.url}/message:stream`, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify({ message: aMessage('Which open source harness has approvals?') }),
    });
    const text = await res.text();
    expect(text).toContain('TASK_STATE_COMPLETED');
    expect(resolve).toHaveBeenCalledTimes(1);
  });
});
