import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { TestServer, startTestServer } from '../utils/test-app';

/**
 * Issue #11.14: on the embedded defaults (harness enabled on loopback, no model configured) the
 * harness skill is not served: not on the card, not in /health's skills (which says why), and
 * every request goes to the shortlist.
 */
describe('Harness skill without a model is not served (issue #11.14)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SUPERQODE_A2A_HARNESS_ENABLED: true });
  });
  afterAll(() => server.close());

  it('the card advertises only the shortlist', async () => {
    const card = await get(`${server.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' });
    expect(card.body.skills.map((s: { id: string }) => s.id)).toEqual(['harness-shortlist']);
  });

  it('/health lists the served skills and says why the harness is not served', async () => {
    const health = await get(`${server.url}/health`);
    expect(health.body.skills).toEqual(['harness-shortlist']);
    expect(health.body.skillsNotServed).toEqual([
      {
        id: 'superqode-harness',
        reason: expect.stringMatching(
          /no model is configured \(no model provider: pass --provider/,
        ),
      },
    ]);
  });

  it.each([
    'what coding agent should I use?',
    'which agent supports ollama',
    'I need a harness for Python with approvals',
    'compare claude code and codex',
    'Fix the failing test in src/parser.ts',
    'hello',
  ])('"%s" is answered by the shortlist, COMPLETED', async (text) => {
    const r = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage(text) }),
      V1,
    );
    expect(r.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(r.body.result.task.status.message.metadata.superqodeSkill).toBe('harness-shortlist');
  });

  it('naming the harness explicitly is invalid params that says why it is not served', async () => {
    const message = aMessage('Fix the failing test', {
      metadata: { superqodeSkill: 'superqode-harness' },
    });
    const r = await post(server.url, aJsonRpcRequest('SendMessage', { message }), V1);
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message).toMatch(
      /Skill 'superqode-harness' is not served: no model is configured/,
    );
  });
});

describe('Harness skill switched off on a loopback bind', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SUPERQODE_A2A_HARNESS_ENABLED: false });
  });
  afterAll(() => server.close());

  it('/health gives the switch as the reason, not the remote-bind rule', async () => {
    const health = await get(`${server.url}/health`);
    expect(health.body.skillsNotServed).toEqual([
      {
        id: 'superqode-harness',
        reason: 'it is switched off (SUPERQODE_A2A_HARNESS_ENABLED=false)',
      },
    ]);
  });
});
