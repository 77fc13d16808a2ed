import { aJsonRpcRequest, aLegacyMessage, aMessage, post, V1 } from '../fixtures/builders';
import { httpRequest, parseRawResponse, rawSocket } from '../utils/raw-http';
import { TestServer, startTestServer } from '../utils/test-app';

const REST_V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };
const SHORTLIST = { superqodeSkill: 'harness-shortlist' };

/**
 * SendMessage members of the wrong JSON type are invalid params on both 1.0 bindings, never
 * coerced by the SDK's decoder (`contextId: {}` became the shared context "[object Object]",
 * `acceptedOutputModes: "text/plain"` was read as "anything").
 */
describe('SendMessage member types (A2A 1.0.1 §3.2.1, §4.1.4; issue #11)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({});
  });
  afterAll(() => server.close());

  const message = (extra: Record<string, unknown> = {}) =>
    aMessage('open source harness', { metadata: SHORTLIST, ...extra });

  it.each([
    [
      'an object contextId',
      { message: message({ contextId: { a: 1 } }) },
      /message\.contextId must be a string/,
    ],
    [
      'a numeric messageId',
      { message: message({ messageId: 5 }) },
      /message\.messageId must be a string/,
    ],
    [
      'an array taskId',
      { message: message({ taskId: ['t'] }) },
      /message\.taskId must be a string/,
    ],
    [
      'string referenceTaskIds',
      { message: message({ referenceTaskIds: 'x' }) },
      /referenceTaskIds must be an array of strings/,
    ],
    [
      'numeric extensions',
      { message: message({ extensions: 5 }) },
      /message\.extensions must be an array of strings/,
    ],
    [
      'string message metadata',
      { message: { ...message(), metadata: 'x' } },
      /message\.metadata must be an object/,
    ],
    [
      'string request metadata',
      { message: message(), metadata: 'x' },
      /^metadata must be an object/,
    ],
    [
      'a scalar configuration',
      { message: message(), configuration: 5 },
      /^configuration must be an object/,
    ],
    [
      'a string acceptedOutputModes',
      { message: message(), configuration: { acceptedOutputModes: 'image/png' } },
      /acceptedOutputModes must be an array of strings/,
    ],
    [
      'non-string acceptedOutputModes',
      { message: message(), configuration: { acceptedOutputModes: [1] } },
      /acceptedOutputModes must be an array of strings/,
    ],
    [
      'a negative historyLength',
      { message: message(), configuration: { historyLength: -1 } },
      /historyLength must be/,
    ],
    [
      'a string returnImmediately',
      { message: message(), configuration: { returnImmediately: 'yes' } },
      /returnImmediately must be a boolean/,
    ],
  ])('%s: JSON-RPC -32602 with the id, REST 400 INVALID_ARGUMENT', async (_name, params, text) => {
    const r = await post(server.url, aJsonRpcRequest('SendMessage', params, 'm7'), V1);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 'm7', error: { code: -32602 } });
    expect(r.body.error.message).toMatch(text);
    const s = await post(`${server.url}/message:send`, params, REST_V1);
    expect(s.status).toBe(400);
    expect(s.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(s.body.error.message).toMatch(text);
    const streamed = await post(
      server.url,
      aJsonRpcRequest('SendStreamingMessage', params, 's7'),
      V1,
    );
    expect(streamed.body).toMatchObject({ id: 's7', error: { code: -32602 } });
  });

  it('well-typed members (ids, references, configuration) are still served', async () => {
    const params = {
      message: message({ contextId: 'ctx-typed', referenceTaskIds: [], extensions: [] }),
      configuration: {
        acceptedOutputModes: ['text/plain'],
        historyLength: 2,
        returnImmediately: false,
      },
      metadata: {},
    };
    const r = await post(server.url, aJsonRpcRequest('SendMessage', params), V1);
    expect(r.body.error).toBeUndefined();
    expect(r.body.result.task).toMatchObject({
      contextId: 'ctx-typed',
      status: { state: 'TASK_STATE_COMPLETED' },
    });
    const s = await post(
      `${server.url}/message:send`,
      { ...params, message: message({ contextId: 'ctx-typed-2' }) },
      REST_V1,
    );
    expect(s.status).toBe(200);
    expect(s.body.task.contextId).toBe('ctx-typed-2');
  });

  describe('historyLength on JSON-RPC GetTask / ListTasks is checked as on HTTP+JSON', () => {
    let taskId: string;
    beforeAll(async () => {
      const r = await post(server.url, aJsonRpcRequest('SendMessage', { message: message() }), V1);
      taskId = r.body.result.task.id;
    });

    it.each([
      ['-1', -1],
      ['1.5', 1.5],
      ['"2"', '2'],
    ])(
      'historyLength %s: -32602 with the id (REST answers 400 for the same query)',
      async (_name, historyLength) => {
        for (const method of ['GetTask', 'ListTasks']) {
          const params = method === 'GetTask' ? { id: taskId, historyLength } : { historyLength };
          const r = await post(server.url, aJsonRpcRequest(method, params, 'h1'), V1);
          expect(r.body).toMatchObject({ id: 'h1', error: { code: -32602 } });
          expect(r.body.error.message).toMatch(/historyLength must be a non-negative integer/);
        }
      },
    );

    it('historyLength 0 and 1 are served', async () => {
      const none = await post(
        server.url,
        aJsonRpcRequest('GetTask', { id: taskId, historyLength: 0 }),
        V1,
      );
      expect(none.body.result.history ?? []).toHaveLength(0);
      const one = await post(
        server.url,
        aJsonRpcRequest('GetTask', { id: taskId, historyLength: 1 }),
        V1,
      );
      expect(one.body.result.history).toHaveLength(1);
    });
  });

  it.each([
    ['a numeric', 5],
    ['an object', {}],
  ])(
    '%s task id on GetTask / CancelTask / SubscribeToTask: -32602, not "Task not found: [object Object]"',
    async (_name, id) => {
      for (const method of ['GetTask', 'CancelTask', 'SubscribeToTask']) {
        const r = await post(server.url, aJsonRpcRequest(method, { id }, 't1'), V1);
        expect(r.body).toMatchObject({ id: 't1', error: { code: -32602 } });
        expect(r.body.error.message).toMatch(/^id must be a string/);
      }
    },
  );

  describe('A2A 0.3 JSON-RPC: the same member types, before the SDK translation', () => {
    const legacyParams = (
      extra: Record<string, unknown> = {},
      request: Record<string, unknown> = {},
    ) => ({
      message: aLegacyMessage('open source harness', { metadata: SHORTLIST, ...extra }),
      ...request,
    });

    it.each([
      [
        'an object contextId (was -32603)',
        legacyParams({ contextId: { a: 1 } }),
        /message\.contextId must be a string/,
      ],
      ['a numeric taskId', legacyParams({ taskId: 5 }), /message\.taskId must be a string/],
      [
        'a string acceptedOutputModes (was spread into characters)',
        legacyParams({}, { configuration: { acceptedOutputModes: 'image/png' } }),
        /acceptedOutputModes must be an array of strings/,
      ],
      [
        'a string configuration',
        legacyParams({}, { configuration: 'x' }),
        /^configuration must be an object/,
      ],
    ])('message/send with %s: -32602 with the id', async (_name, params, text) => {
      const r = await post(server.url, aJsonRpcRequest('message/send', params, 'l7'));
      expect(r.body).toMatchObject({ id: 'l7', error: { code: -32602 } });
      expect(r.body.error.message).toMatch(text);
    });

    it.each([['tasks/get'], ['tasks/cancel']])(
      '%s with an object or numeric id (was -32603): -32602',
      async (method) => {
        for (const id of [{}, 5]) {
          const r = await post(server.url, aJsonRpcRequest(method, { id }, 'l8'));
          expect(r.body).toMatchObject({ id: 'l8', error: { code: -32602 } });
          expect(r.body.error.message).toMatch(/^id must be a string/);
        }
      },
    );

    it('a well-typed 0.3 send is still served', async () => {
      const params = legacyParams(
        { contextId: 'ctx-legacy' },
        { configuration: { acceptedOutputModes: ['text/plain'] } },
      );
      const r = await post(server.url, aJsonRpcRequest('message/send', params));
      expect(r.body.result).toMatchObject({
        kind: 'task',
        contextId: 'ctx-legacy',
        status: { state: 'completed' },
      });
    });
  });

  describe('repeated request fields are refused, not silently narrowed', () => {
    it.each([
      ['status', 'status=TASK_STATE_COMPLETED&status=TASK_STATE_FAILED'],
      ['pageSize', 'pageSize=1&pageSize=2'],
      ['contextId', 'contextId=a&contextId=b'],
    ])(
      'GET /tasks with %s twice: 400 INVALID_ARGUMENT naming it (was: the filter dropped)',
      async (name, query) => {
        const r = await httpRequest(server.url, {
          path: `/tasks?${query}`,
          headers: { 'A2A-Version': '1.0' },
        });
        expect(r.status).toBe(400);
        expect(r.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
        expect(r.body.error.message).toBe(`${name} must be given at most once`);
      },
    );

    it('two Host lines (loopback first, a foreign name second): 400 in the binding shape (RFC 9112 §3.2)', async () => {
      const body = JSON.stringify(aJsonRpcRequest('ListTasks', {}));
      const s = await rawSocket(
        server.url,
        'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n' +
          `A2A-Version: 1.0\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      const reply = parseRawResponse(await s.closed);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32600, message: expect.stringMatching(/more than one Host/) },
      });
      const rest = await rawSocket(
        server.url,
        'GET /tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nA2A-Version: 1.0\r\nConnection: close\r\n\r\n',
      );
      const restReply = parseRawResponse(await rest.closed);
      expect(restReply.status).toBe(400);
      expect(restReply.body.error).toMatchObject({ code: 400 });
    });
  });
});
