import { randomUUID } from 'node:crypto';
import { Role } from '@a2a-js/sdk';
import type { AgentCard, SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import type { Client } from '@a2a-js/sdk/client';
import { aJsonRpcRequest, aLegacyMessage, aMessage, post, V1 } from '../fixtures/builders';
import { TestServer, startTestServer } from '../utils/test-app';

const LEGACY = { 'content-type': 'application/json' };

/** POSTs a 0.3 request and returns status, content type and the raw body. */
async function legacyRaw(url: string, method: string, params: unknown, id: string | number = 7) {
  const res = await fetch(url, {
    method: 'POST',
    headers: LEGACY,
    body: JSON.stringify(aJsonRpcRequest(method, params, id)),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: await res.text(),
  };
}

/** The single `data:` frame of an SSE body, parsed; fails on any `event:` line. */
function onlyDataFrame(body: string): any {
  expect(body).not.toMatch(/^event:/m);
  const frames = body.split('\n\n').filter(Boolean);
  expect(frames).toHaveLength(1);
  expect(frames[0]).toMatch(/^data: /);
  return JSON.parse(frames[0].slice('data: '.length));
}

/**
 * Issue #11.10: on the 0.3 binding every streaming-method error is HTTP 200 text/event-stream with
 * a plain `data:` frame holding the JSON-RPC error (the framing all four 0.3 clients tried read).
 * A2A 1.0 keeps plain JSON responses for early errors.
 */
describe('0.3 streaming errors: HTTP 200 SSE with a plain data: frame', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('message/stream with no parts: -32602 in a data: frame', async () => {
    const r = await legacyRaw(
      server.url,
      'message/stream',
      { message: { ...aLegacyMessage('x'), parts: [] } },
      'a',
    );
    expect(r.status).toBe(200);
    expect(r.type).toContain('text/event-stream');
    expect(onlyDataFrame(r.body)).toMatchObject({
      jsonrpc: '2.0',
      id: 'a',
      error: { code: -32602 },
    });
  });

  it('message/stream on a finished task: the SDK error code in a data: frame', async () => {
    const done = await post(
      server.url,
      aJsonRpcRequest('message/send', { message: aLegacyMessage('which harness works in zed?') }),
      LEGACY,
    );
    const taskId = done.body.result.id;
    const r = await legacyRaw(server.url, 'message/stream', {
      message: aLegacyMessage('again', { taskId }),
    });
    expect(r.type).toContain('text/event-stream');
    expect(onlyDataFrame(r.body).error.code).toBe(-32004);
  });

  it('message/stream without params: invalid params in a data: frame', async () => {
    const r = await legacyRaw(server.url, 'message/stream', undefined);
    expect(r.type).toContain('text/event-stream');
    expect(onlyDataFrame(r.body).error.code).toBe(-32602);
  });

  it('tasks/resubscribe of an unknown task: -32001 in a data: frame', async () => {
    const r = await legacyRaw(server.url, 'tasks/resubscribe', { id: randomUUID() });
    expect(r.status).toBe(200);
    expect(onlyDataFrame(r.body).error.code).toBe(-32001);
  });

  it('the SDK 0.3 client gets the error with its code, not an empty stream', async () => {
    const card: AgentCard = await (
      await new ClientFactory().createFromUrl(server.url)
    ).getAgentCard();
    const only = {
      ...card,
      supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === '0.3'),
    };
    const client: Client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
    }).createFromAgentCard(only);
    const request: SendMessageRequest = {
      tenant: '',
      message: {
        messageId: randomUUID(),
        contextId: '',
        taskId: randomUUID(),
        role: Role.ROLE_USER,
        parts: [
          {
            content: { $case: 'text', value: 'x' },
            metadata: undefined,
            filename: '',
            mediaType: '',
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    };
    const consume = async () => {
      for await (const _event of client.sendMessageStream(request)) void _event;
    };
    await expect(consume()).rejects.toThrow(/not found/i);
  });

  it('A2A 1.0 SendStreamingMessage keeps a plain JSON error response', async () => {
    const r = await post(
      server.url,
      aJsonRpcRequest('SendStreamingMessage', { message: { ...aMessage('x'), parts: [] } }),
      V1,
    );
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.body.error.code).toBe(-32602);
  });
});
