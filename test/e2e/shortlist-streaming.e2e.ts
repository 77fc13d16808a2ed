import { TaskState } from '@a2a-js/sdk';
import type { AgentCard, StreamResponse } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import type { Client } from '@a2a-js/sdk/client';
import { aJsonRpcRequest, aLegacyMessage, aMessage, post, V1 } from '../fixtures/builders';
import { TestServer, startTestServer } from '../utils/test-app';
import { anSdkSendRequest } from '../fixtures/sdk-requests';

const QUESTION = 'which harness is open source and works with ollama?';

const request = (text: string) => anSdkSendRequest(text);

/** The `data:` payloads of an SSE body, parsed. */
async function sseData(res: Response): Promise<any[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join(''),
    )
    .filter(Boolean)
    .map((d) => JSON.parse(d));
}

const INTERFACES = [
  { name: 'JSON-RPC 1.0', binding: 'JSONRPC', version: '1.0' },
  { name: 'JSON-RPC 0.3', binding: 'JSONRPC', version: '0.3' },
  { name: 'HTTP+JSON 1.0', binding: 'HTTP+JSON', version: '1.0' },
] as const;

describe('A streamed shortlist reply: Task, artifact update, final status update (issue #11.9)', () => {
  let server: TestServer;
  let card: AgentCard;
  beforeAll(async () => {
    server = await startTestServer();
    card = await (await new ClientFactory().createFromUrl(server.url)).getAgentCard();
  });
  afterAll(() => server.close());

  describe.each(INTERFACES)('$name, the SDK client', ({ binding, version }) => {
    let client: Client;
    beforeAll(async () => {
      const only = {
        ...card,
        supportedInterfaces: card.supportedInterfaces.filter(
          (i) => i.protocolBinding === binding && i.protocolVersion === version,
        ),
      };
      const factory = new ClientFactory({
        transports: [
          new JsonRpcTransportFactory({ legacyCompat: { enabled: true } }),
          new RestTransportFactory(),
        ],
      });
      client = await factory.createFromAgentCard(only);
    });

    it('sendMessageStream yields task (WORKING), artifactUpdate (the shortlist), statusUpdate COMPLETED', async () => {
      const events: StreamResponse[] = [];
      for await (const e of client.sendMessageStream(request(QUESTION))) events.push(e);
      expect(events.map((e) => e.payload?.$case)).toEqual([
        'task',
        'artifactUpdate',
        'statusUpdate',
      ]);
      const [task, art, status] = events.map((e) => e.payload!.value as any);
      expect(task.status.state).toBe(TaskState.TASK_STATE_WORKING);
      expect(art.taskId).toBe(task.id);
      expect(art.artifact.name).toBe('shortlist');
      expect(art.artifact.parts.map((p: any) => p.content.$case)).toEqual(['text', 'data']);
      expect(art.artifact.parts[0].content.value).toMatch(/not a measurement/);
      expect(status.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(status.status.message.metadata.superqodeSkill).toBe('harness-shortlist');
      // The streamed answer is persisted: GetTask shows the completed task with its artifact.
      const stored = await client.getTask({ id: task.id, tenant: '', historyLength: undefined });
      expect(stored.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(stored.artifacts.map((a) => a.name)).toEqual(['shortlist']);
    });

    it('a blocking send still answers one finished Task', async () => {
      const task = (await client.sendMessage(request(QUESTION))) as any;
      expect(task.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task.artifacts.map((a: any) => a.name)).toEqual(['shortlist']);
    });
  });

  it('0.3 message/stream on the wire: task, artifact-update, status-update with final: true', async () => {
    const body = aJsonRpcRequest('message/stream', { message: aLegacyMessage(QUESTION) });
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const frames = await sseData(res);
    expect(frames.map((f) => f.result.kind)).toEqual(['task', 'artifact-update', 'status-update']);
    expect(frames[0].result.status.state).toBe('working');
    expect(frames[2].result).toMatchObject({ final: true, status: { state: 'completed' } });
  });

  it('1.0 SendStreamingMessage on the wire ends with the COMPLETED statusUpdate', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify(
        aJsonRpcRequest('SendStreamingMessage', { message: aMessage(QUESTION) }),
      ),
    });
    const frames = await sseData(res);
    expect(frames.map((f) => Object.keys(f.result)[0])).toEqual([
      'task',
      'artifactUpdate',
      'statusUpdate',
    ]);
    expect(frames[2].result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a blocking 1.0 SendMessage answers the completed task (unchanged)', async () => {
    const r = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage(QUESTION) }),
      V1,
    );
    expect(r.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
