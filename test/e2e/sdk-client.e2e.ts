import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import type { AgentCard, Message, SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import type { Client } from '@a2a-js/sdk/client';
import { withSlowExecutor } from '../utils/executor-override';
import { TestServer, startTestServer } from '../utils/test-app';
import { anSdkSendRequest } from '../fixtures/sdk-requests';

const request = (
  text: string,
  extra: Partial<SendMessageRequest> = {},
  msg: Partial<Message> = {},
) => anSdkSendRequest(text, { message: msg, extra });

async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

function asTask(result: Message | Task): Task {
  expect('status' in result).toBe(true);
  return result as Task;
}

const INTERFACES = [
  { name: 'JSON-RPC 1.0', binding: 'JSONRPC', version: '1.0' },
  { name: 'JSON-RPC 0.3', binding: 'JSONRPC', version: '0.3' },
  { name: 'HTTP+JSON 1.0', binding: 'HTTP+JSON', version: '1.0' },
] as const;

describe('SDK client against each advertised interface (A2A §3.1)', () => {
  let server: TestServer;
  let card: AgentCard;

  beforeAll(async () => {
    server = await startTestServer({}, { customize: withSlowExecutor });
    const factory = new ClientFactory();
    card = await (await factory.createFromUrl(server.url)).getAgentCard();
  });
  afterAll(() => server.close());

  it('advertises JSONRPC 1.0, JSONRPC 0.3 and HTTP+JSON 1.0 in that order', () => {
    expect(
      card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`),
    ).toEqual(['JSONRPC 1.0', 'JSONRPC 0.3', 'HTTP+JSON 1.0']);
  });

  describe.each(INTERFACES)('$name', ({ binding, version }) => {
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

    it('a blocking send completes with the shortlist artifact and camelCase metadata', async () => {
      const task = asTask(
        await client.sendMessage(request('which harness is open source and supports ollama?')),
      );
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const parts = task.artifacts[0].parts.map((p) => p.content?.$case);
      expect(parts).toEqual(['text', 'data']);
      const text = task.artifacts[0].parts[0].content?.value as string;
      expect(text).toMatch(/not a measurement/);
      expect(task.status?.message?.metadata).toMatchObject({
        superqodeSkill: 'harness-shortlist',
        superqodeUnderstood: false,
      });
      expect(Array.isArray(task.status?.message?.metadata?.superqodeShortlist)).toBe(true);
    });

    it('GetTask returns the stored task, history trimmed by historyLength', async () => {
      const sent = asTask(await client.sendMessage(request('shortlist harnesses for python')));
      const full = await client.getTask({ id: sent.id, tenant: '', historyLength: undefined });
      expect(full.id).toBe(sent.id);
      expect(full.history.length).toBeGreaterThanOrEqual(1);
      const none = await client.getTask({ id: sent.id, tenant: '', historyLength: 0 });
      expect(none.history).toEqual([]);
    });

    it('GetTask of an unknown id fails with TaskNotFound', async () => {
      await expect(
        client.getTask({ id: randomUUID(), tenant: '', historyLength: undefined }),
      ).rejects.toThrow(/not found/i);
    });

    it('a streamed send yields the task, then events in order, ending COMPLETED', async () => {
      const events = await collect(client.sendMessageStream(request('slow 3')));
      const kinds = events.map((e) => e.payload?.$case);
      expect(kinds[0]).toBe('task');
      const ticks = events
        .filter((e) => e.payload?.$case === 'artifactUpdate')
        .map(
          (e) =>
            (e.payload as { value: { artifact: { parts: { content: { value: string } }[] } } })
              .value.artifact.parts[0].content.value,
        );
      expect(ticks).toEqual(['tick 1', 'tick 2', 'tick 3']);
      const last = events[events.length - 1].payload;
      expect(last?.$case).toBe('statusUpdate');
      expect((last as { value: { status: { state: TaskState } } }).value.status.state).toBe(
        TaskState.TASK_STATE_COMPLETED,
      );
    });

    it('returnImmediately then cancel ends CANCELED', async () => {
      const config = {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        returnImmediately: true,
      };
      const task = asTask(await client.sendMessage(request('slow 50', { configuration: config })));
      expect(task.status?.state).not.toBe(TaskState.TASK_STATE_COMPLETED);
      const canceled = await client.cancelTask({ id: task.id, tenant: '', metadata: {} });
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      const again = await client.getTask({ id: task.id, tenant: '', historyLength: undefined });
      expect(again.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    });

    it('cancel of a completed task fails with TaskNotCancelable', async () => {
      const task = asTask(await client.sendMessage(request('which harness for go')));
      await expect(client.cancelTask({ id: task.id, tenant: '', metadata: {} })).rejects.toThrow(
        /cancel/i,
      );
    });

    it('subscribe to a running task yields the current Task first, then live events to the end', async () => {
      const config = {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        returnImmediately: true,
      };
      const task = asTask(await client.sendMessage(request('slow 5', { configuration: config })));
      const events = await collect(client.resubscribeTask({ id: task.id, tenant: '' }));
      expect(events[0].payload?.$case).toBe('task');
      expect((events[0].payload as { value: Task }).value.id).toBe(task.id);
      const last = events[events.length - 1].payload as {
        $case: string;
        value: { status: { state: TaskState } };
      };
      expect(last.value.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    });

    it('a later send in the same contextId keeps the context', async () => {
      const first = asTask(await client.sendMessage(request('which harness for rust')));
      const second = asTask(
        await client.sendMessage(
          request('and for typescript?', {}, { contextId: first.contextId }),
        ),
      );
      expect(second.contextId).toBe(first.contextId);
      expect(second.id).not.toBe(first.id);
    });

    if (version === '1.0') {
      it('ListTasks filters by contextId and pages with nextPageToken', async () => {
        const contextId = randomUUID();
        for (let i = 0; i < 3; i++)
          await client.sendMessage(request(`shortlist ${i}`, {}, { contextId }));
        const page1 = await client.listTasks({
          tenant: '',
          contextId,
          status: 0,
          pageSize: 2,
          pageToken: '',
          historyLength: undefined,
          statusTimestampAfter: undefined,
          includeArtifacts: false,
        });
        expect(page1.tasks).toHaveLength(2);
        expect(page1.totalSize).toBe(3);
        expect(page1.nextPageToken).not.toBe('');
        const page2 = await client.listTasks({
          tenant: '',
          contextId,
          status: 0,
          pageSize: 2,
          pageToken: page1.nextPageToken,
          historyLength: undefined,
          statusTimestampAfter: undefined,
          includeArtifacts: false,
        });
        expect(page2.tasks).toHaveLength(1);
        expect(page2.nextPageToken).toBe('');
        const ids = [...page1.tasks, ...page2.tasks].map((t) => t.id);
        expect(new Set(ids).size).toBe(3);
        expect(ids.every((id, i) => i === 0 || id !== ids[i - 1])).toBe(true);
      });
    }
  });
});
