import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { aKey, aKeySecret, bearer, OPERATOR_TOKEN } from '../fixtures/credentials';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { TestServer, startTestServer } from '../utils/test-app';

const ASK = 'which harness can I change freely and run on my own hardware? '.repeat(30);

describe('Model-read shortlist requests (issue #5)', () => {
  const secret = aKeySecret();
  let fake: FakeOpenAiServer;
  let server: TestServer;
  const shortlist = async (headers: Record<string, string>) => {
    const r = await post(server.url, aJsonRpcRequest('SendMessage', { message: aMessage(ASK) }), {
      ...V1,
      ...headers,
    });
    const task = r.body.result.task;
    return { meta: task.status.message.metadata, data: task.artifacts[0].parts[1].data };
  };

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    server = await startTestServer({
      SUPERQODE_A2A_KEY_SECRET: secret,
      SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
      SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
      SUPERQODE_A2A_UNDERSTAND_TIMEOUT_MS: 500,
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it("a keyed caller's request is read by the model: constraints merged, unknown ones dropped, superqodeUnderstood true", async () => {
    fake.enqueue({
      text: '```json\n{"openSource": true, "localModels": true, "languages": ["rust", "cobol"], "budget": 3}\n```',
    });
    const before = fake.requests.length;
    const { meta, data } = await shortlist(bearer(aKey(secret).key));
    expect(meta.superqodeUnderstood).toBe(true);
    expect(data.constraints).toMatchObject({
      openSource: true,
      localModels: true,
      languages: ['rust'],
    });
    const sent = fake.requests[before].body;
    expect(sent.temperature).toBe(0);
    const user = sent.messages.find((m) => m.role === 'user')!;
    expect(String(user.content).length).toBeLessThanOrEqual(800);
    expect(JSON.stringify(sent)).not.toMatch(/codex|cursor|copilot/i);
  });

  it('a non-JSON answer falls back to the keyword parser', async () => {
    fake.enqueue({ text: 'I think you want Codex.' });
    const { meta } = await shortlist(bearer(OPERATOR_TOKEN));
    expect(meta.superqodeUnderstood).toBe(false);
  });

  it('a model that does not answer in time falls back to the keyword parser', async () => {
    fake.enqueue({ hang: true });
    const { meta } = await shortlist(bearer(OPERATOR_TOKEN));
    expect(meta.superqodeUnderstood).toBe(false);
    expect(fake.pending).toBe(0); // the hanging turn was taken: the fallback followed the time limit
  });

  it('anonymous callers always get the keyword parser, without a model call', async () => {
    const before = fake.requests.length;
    const { meta } = await shortlist({});
    expect(meta.superqodeUnderstood).toBe(false);
    expect(fake.requests.length).toBe(before);
  });
});
