import { aJsonRpcRequest, aLegacyMessage, aMessage, post, V1 } from '../fixtures/builders';
import { withSlowExecutor } from '../utils/executor-override';
import { httpRequest, parseRawResponse, rawSocket } from '../utils/raw-http';
import { TestServer, startTestServer } from '../utils/test-app';

const REST_V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };
const nested = (depth: number): unknown =>
  JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
const rpc = (message: unknown, id: number | string = 7) =>
  aJsonRpcRequest('SendMessage', { message }, id);

describe('Transport hardening (issue #11)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { customize: withSlowExecutor });
  });
  afterAll(() => server.close());

  describe('bad message shapes and deep nesting are invalid params, never 500 (#11.2)', () => {
    it.each([
      ['a null part', [null], /message\.parts\[0\] must be an object/],
      ['a scalar part', [5], /message\.parts\[0\] must be an object/],
      ['a part with no content member', [{ metadata: {} }], /parts\[0\] has no content/],
      ['raw that is not base64 text', [{ raw: 5 }], /parts\[0\]\.raw must be a string/],
    ])('%s: JSON-RPC -32602 (with the id), REST 400', async (_name, parts, message) => {
      const r = await post(server.url, rpc(aMessage('x', { parts }), 'p1'), V1);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: 'p1', error: { code: -32602 } });
      expect(r.body.error.message).toMatch(message);
      const s = await post(
        `${server.url}/message:send`,
        { message: aMessage('x', { parts }) },
        REST_V1,
      );
      expect(s.status).toBe(400);
      expect(s.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      expect(s.body.error.message).toMatch(message);
    });

    it.each([
      ['a file part without a file', [{ kind: 'file' }], /parts\[0\]\.file must be an object/],
      [
        'a file part with numeric bytes',
        [{ kind: 'file', file: { bytes: 5 } }],
        /parts\[0\]\.file needs bytes/,
      ],
      [
        'a text part with a number',
        [{ kind: 'text', text: 5 }],
        /parts\[0\]\.text must be a string/,
      ],
    ])('0.3 %s: -32602, not 500 nor a failed task', async (_name, parts, message) => {
      const r = await post(
        server.url,
        aJsonRpcRequest('message/send', { message: aLegacyMessage('x', { parts }) }, 'l1'),
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: 'l1', error: { code: -32602 } });
      expect(r.body.error.message).toMatch(message);
    });

    it('metadata nested 2,000 deep: -32602 naming the limit (64), not a stack overflow', async () => {
      const r = await post(server.url, rpc(aMessage('x', { metadata: nested(2000) }), 'd1'), V1);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: 'd1', error: { code: -32602 } });
      expect(r.body.error.message).toMatch(/deeper than 64 levels/);
    });

    it('a data part nested 2,000 deep on REST and on streaming: 400 naming the limit', async () => {
      const parts = [{ data: nested(2000) }];
      const s = await post(
        `${server.url}/message:send`,
        { message: aMessage('x', { parts }) },
        REST_V1,
      );
      expect(s.status).toBe(400);
      expect(s.body.error.message).toMatch(/deeper than 64 levels/);
      const t = await post(
        `${server.url}/message:stream`,
        { message: aMessage('x', { parts }) },
        REST_V1,
      );
      expect(t.status).toBe(400);
      const u = await post(
        server.url,
        aJsonRpcRequest('SendStreamingMessage', { message: aMessage('x', { parts }) }),
        V1,
      );
      expect(u.body.error.code).toBe(-32602);
    });

    it('moderate nesting (depth 40) and brackets inside strings are accepted', async () => {
      const message = aMessage('slow 1', {
        metadata: { deep: nested(40), text: '[[[[{{{{'.repeat(50) },
      });
      const r = await post(server.url, rpc(message), V1);
      expect(r.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    });
  });

  describe('Fastify- and Node-level failures answer in the binding shape (#11.3)', () => {
    it('a task id over the parameter limit: 414 google.rpc.Status, not Fastify’s shape', async () => {
      const r = await httpRequest(server.url, {
        path: `/tasks/${'a'.repeat(300)}`,
        headers: { 'A2A-Version': '1.0' },
      });
      expect(r.status).toBe(414);
      expect(r.body).toEqual({
        error: expect.objectContaining({ code: 414, status: 'INVALID_ARGUMENT' }),
      });
    });

    it('a malformed percent-encoding in a path parameter: 400 google.rpc.Status', async () => {
      const r = await httpRequest(server.url, {
        path: '/tasks/%E0%A4%A',
        headers: { 'A2A-Version': '1.0' },
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        error: expect.objectContaining({ code: 400, status: 'INVALID_ARGUMENT' }),
      });
    });

    it('an invalid Content-Length on POST /: 400 with a JSON-RPC envelope', async () => {
      const s = await rawSocket(
        server.url,
        'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
      );
      const reply = parseRawResponse(await s.closed);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });

    it('an invalid Content-Length on a REST route: 400 google.rpc.Status', async () => {
      const s = await rawSocket(
        server.url,
        'POST /message:send HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1, 2\r\n\r\n{}',
      );
      const reply = parseRawResponse(await s.closed);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        error: expect.objectContaining({ code: 400, status: 'INVALID_ARGUMENT' }),
      });
    });
  });

  describe('REST statuses follow A2A 1.0.1 §5.4 (#11.12)', () => {
    it('CancelTask on a finished task → 400 TaskNotCancelable', async () => {
      const sent = await post(
        `${server.url}/message:send`,
        { message: aMessage('slow 1') },
        REST_V1,
      );
      const r = await post(`${server.url}/tasks/${sent.body.task.id}:cancel`, {}, REST_V1);
      expect(r.status).toBe(400);
      expect(r.body.error.details[0].reason).toBe('TASK_NOT_CANCELABLE');
    });

    it('an unsupported Content-Type → 400 ContentTypeNotSupported', async () => {
      const r = await post(
        `${server.url}/message:send`,
        JSON.stringify({ message: aMessage('x') }),
        { 'content-type': 'text/plain', 'A2A-Version': '1.0' },
      );
      expect(r.status).toBe(400);
      expect(r.body.error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
    });
  });

  describe('preflights and the negotiated A2A-Version (#11.13)', () => {
    it('OPTIONS on the RPC routes answers 204 (no CORS grant without an allowed origin)', async () => {
      for (const path of ['/', '/message:send', '/tasks/abc:cancel', '/tasks']) {
        const r = await httpRequest(server.url, {
          method: 'OPTIONS',
          path,
          headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
        });
        expect(r.status).toBe(204);
        expect(r.headers['access-control-allow-origin']).toBeUndefined();
      }
    });

    it('replies carry the negotiated A2A-Version: 1.0 when asked, 0.3 for header-less JSON-RPC', async () => {
      const v1 = await post(server.url, aJsonRpcRequest('GetTask', { id: 'nope' }), V1);
      expect(v1.headers.get('a2a-version')).toBe('1.0');
      const legacy = await post(server.url, aJsonRpcRequest('tasks/get', { id: 'nope' }));
      expect(legacy.headers.get('a2a-version')).toBe('0.3');
      const rest = await httpRequest(server.url, {
        path: '/tasks',
        headers: { 'A2A-Version': '1.0' },
      });
      expect(rest.headers['a2a-version']).toBe('1.0');
      const stream = await fetch(`${server.url}/message:stream`, {
        method: 'POST',
        headers: REST_V1,
        body: JSON.stringify({ message: aMessage('slow 1') }),
      });
      expect(stream.headers.get('a2a-version')).toBe('1.0');
      await stream.text();
    });
  });
});

describe('Connection limits (issue #11.4)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      {
        SUPERQODE_A2A_REQUEST_TIMEOUT_MS: 400,
        SUPERQODE_A2A_HEADERS_TIMEOUT_MS: 400,
        SUPERQODE_A2A_KEEP_ALIVE_TIMEOUT_MS: 300,
        SUPERQODE_A2A_MAX_CONNECTIONS_PER_ADDRESS: 4,
      },
      { customize: withSlowExecutor },
    );
  });
  afterAll(() => server.close());

  it('a client that sends its body slowly is answered 408 (A2A shape) and disconnected', async () => {
    const s = await rawSocket(
      server.url,
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"json',
    );
    const reply = parseRawResponse(await s.closed);
    expect(reply.status).toBe(408);
    expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('a client that never finishes its headers is answered 408 and disconnected', async () => {
    const s = await rawSocket(server.url, 'GET /tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const reply = parseRawResponse(await s.closed);
    expect(reply.status).toBe(408);
    expect(reply.body).toEqual({
      error: expect.objectContaining({ code: 408, status: 'DEADLINE_EXCEEDED' }),
    });
  });

  it('an idle kept-alive connection is closed by the server', async () => {
    const s = await rawSocket(server.url, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const all = await s.closed;
    expect(parseRawResponse(all).status).toBe(200);
  });

  it('an SSE stream outlives the request timeout while a slow client is cut', async () => {
    const stream = await fetch(`${server.url}/message:stream`, {
      method: 'POST',
      headers: REST_V1,
      body: JSON.stringify({ message: aMessage('slow 40') }),
    });
    const reader = stream.body!.getReader();
    await reader.read(); // the stream has started
    const slow = await rawSocket(
      server.url,
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{',
    );
    expect(parseRawResponse(await slow.closed).status).toBe(408);
    let text = '';
    const decoder = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read())
      text += decoder.decode(r.value);
    expect(text).toContain('tick 40');
    expect(text).toContain('TASK_STATE_COMPLETED');
  });

  it('connections over the per-address cap get 503 and are closed; freed slots are usable again', async () => {
    const held = await Promise.all([1, 2, 3, 4].map(() => rawSocket(server.url)));
    const extra = await rawSocket(server.url);
    const reply = parseRawResponse(await extra.closed);
    expect(reply.status).toBe(503);
    expect(reply.head).toMatch(/Retry-After: 1/i);
    expect(reply.body.error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
    expect(reply.body.error.message).toMatch(/limit 4/);
    held[0].socket.destroy();
    await held[0].closed;
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      // the server learns of the close asynchronously: retry until the slot is free
      const again = await rawSocket(
        server.url,
        'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
      );
      status = parseRawResponse(await again.closed).status;
    }
    expect(status).toBe(200);
    held.slice(1).forEach((h) => h.socket.destroy());
  });
});
