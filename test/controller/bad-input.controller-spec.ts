import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { aJsonRpcRequest, aLegacyMessage, aMessage, V1 } from '../fixtures/builders';
import { InjectedApp, startInjectedApp } from '../utils/inject-app';

const REST_V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

describe('Bad input gets the right A2A error and loses nothing (A2A §9.4, §11.6)', () => {
  // Controller tier: the real app on Fastify, driven with inject() (wire shapes only).
  let server: InjectedApp;
  const post: InjectedApp['post'] = (...args) => server.post(...args);
  const get: InjectedApp['get'] = (...args) => server.get(...args);
  beforeAll(async () => {
    server = await startInjectedApp({ SUPERQODE_A2A_MAX_BODY_BYTES: 4096 });
  });
  afterAll(() => server.close());

  describe('JSON-RPC binding', () => {
    it('malformed JSON → -32700 with HTTP 200', async () => {
      const r = await post(server.url, '{"jsonrpc":', V1);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.any(String) },
      });
    });

    it.each([
      ['a JSON array (batch)', '[]'],
      ['a JSON string', '"x"'],
      ['no jsonrpc member', JSON.stringify({ id: 1, method: 'GetTask', params: {} })],
      ['no method', JSON.stringify({ jsonrpc: '2.0', id: 1, params: {} })],
      ['an object id', JSON.stringify({ jsonrpc: '2.0', id: {}, method: 'GetTask' })],
    ])('%s → -32600 invalid request', async (_name, body) => {
      const r = await post(server.url, body, V1);
      expect(r.status).toBe(200);
      expect(r.body.error.code).toBe(-32600);
    });

    it('unknown method → -32601 (1.0 and 0.3)', async () => {
      const v1 = await post(server.url, aJsonRpcRequest('NoSuchMethod', {}), V1);
      expect(v1.body.error.code).toBe(-32601);
      const v03 = await post(server.url, aJsonRpcRequest('no/such', {}));
      expect(v03.body.error.code).toBe(-32601);
    });

    it.each([
      ['a message with no parts', { message: { ...aMessage('x'), parts: [] } }],
      ['a part of unknown shape', { message: { ...aMessage('x'), parts: [{ video: 'x' }] } }],
      ['no message', {}],
      ['no messageId', { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } }],
      ['an agent role', { message: { ...aMessage('x'), role: 'ROLE_AGENT' } }],
      ['an unknown skill', { message: aMessage('x'), metadata: { superqodeSkill: 'nope' } }],
    ])('SendMessage with %s → -32602', async (_name, params) => {
      const r = await post(server.url, aJsonRpcRequest('SendMessage', params, 7), V1);
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(7);
      expect(r.body.error.code).toBe(-32602);
    });

    it('an unknown skill id is named with the served skills', async () => {
      const params = { message: aMessage('x', { metadata: { superqode_skill: 'harness' } }) };
      const r = await post(server.url, aJsonRpcRequest('SendMessage', params), V1);
      expect(r.body.error.message).toMatch(/Unknown skill 'harness'.*harness-shortlist/);
    });

    it('unknown task → -32001 TaskNotFound', async () => {
      const r = await post(server.url, aJsonRpcRequest('GetTask', { id: randomUUID() }), V1);
      expect(r.body.error.code).toBe(-32001);
    });

    it('cancel of a finished task → -32002 TaskNotCancelable (1.0 and 0.3)', async () => {
      const sent = await post(
        server.url,
        aJsonRpcRequest('SendMessage', { message: aMessage('which harness for go') }),
        V1,
      );
      const id = sent.body.result.task.id;
      const v1 = await post(server.url, aJsonRpcRequest('CancelTask', { id }), V1);
      expect(v1.body.error.code).toBe(-32002);
      const legacy = await post(
        server.url,
        aJsonRpcRequest('message/send', { message: aLegacyMessage('shortlist') }),
      );
      const v03 = await post(
        server.url,
        aJsonRpcRequest('tasks/cancel', { id: legacy.body.result.id }),
      );
      expect(v03.body.error.code).toBe(-32002);
    });

    it.each([
      ['contextId', { contextId: 'c\u0000x' }],
      ['taskId', { taskId: 't\u0000' }],
      ['referenceTaskIds[0]', { referenceTaskIds: ['r\u0000'] }],
    ])('a U+0000 in %s → -32602 on every store, before any skill runs', async (field, extra) => {
      const r = await post(
        server.url,
        aJsonRpcRequest('SendMessage', { message: aMessage('hi', extra) }),
        V1,
      );
      expect(r.body.error).toMatchObject({
        code: -32602,
        message: `${field} must not contain U+0000 (NUL)`,
      });
      const rest = await post(
        `${server.url}/message:send`,
        { message: aMessage('hi', extra) },
        REST_V1,
      );
      expect([rest.status, rest.body.error.status]).toEqual([400, 'INVALID_ARGUMENT']);
    });

    it('unsupported content type → -32005', async () => {
      const r = await post(server.url, JSON.stringify(aJsonRpcRequest('GetTask', { id: 'x' })), {
        'content-type': 'text/plain',
        'A2A-Version': '1.0',
      });
      expect(r.status).toBe(200);
      expect(r.body.error.code).toBe(-32005);
    });

    it('unsupported version → -32009; patch versions count as their minor (A2A §3.6.2)', async () => {
      const bad = await post(server.url, aJsonRpcRequest('GetTask', { id: 'x' }), {
        ...V1,
        'A2A-Version': '2.0',
      });
      expect(bad.body.error.code).toBe(-32009);
      const patch = await post(server.url, aJsonRpcRequest('GetTask', { id: 'x' }), {
        ...V1,
        'A2A-Version': '1.0.3',
      });
      expect(patch.body.error.code).toBe(-32001);
      const query = await post(
        `${server.url}/?A2A-Version=1.0`,
        aJsonRpcRequest('GetTask', { id: 'x' }),
      );
      expect(query.body.error.code).toBe(-32001);
    });

    it('a 1.0 method name without the header is a 0.3 request: -32601', async () => {
      const r = await post(server.url, aJsonRpcRequest('GetTask', { id: 'x' }));
      expect(r.body.error.code).toBe(-32601);
    });

    it('a body over the limit → 413 with a JSON-RPC envelope, never HTML', async () => {
      const big = JSON.stringify(
        aJsonRpcRequest('SendMessage', { message: aMessage('x'.repeat(8000)) }),
      );
      const r = await post(server.url, big, V1);
      expect(r.status).toBe(413);
      expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });

    it('unknown JSON fields are ignored', async () => {
      const params = {
        message: { ...aMessage('which harness for rust'), futureField: 1 },
        alsoUnknown: true,
      };
      const r = await post(
        server.url,
        { ...aJsonRpcRequest('SendMessage', params), extra: 'x' },
        V1,
      );
      expect(r.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    });
  });

  describe('HTTP+JSON binding', () => {
    it('malformed JSON → 400 INVALID_ARGUMENT in google.rpc.Status shape', async () => {
      const r = await post(`${server.url}/message:send`, '{bad', REST_V1);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    });

    it('a message with no parts → 400', async () => {
      const r = await post(
        `${server.url}/message:send`,
        { message: { ...aMessage('x'), parts: [] } },
        REST_V1,
      );
      expect(r.status).toBe(400);
      expect(r.body.error.details[0].reason).toBe('INVALID_PARAMS');
    });

    it('unknown task → 404 TASK_NOT_FOUND', async () => {
      const r = await get(`${server.url}/tasks/${randomUUID()}`, { 'A2A-Version': '1.0' });
      expect(r.status).toBe(404);
      expect(r.body.error.details[0].reason).toBe('TASK_NOT_FOUND');
    });

    it('cancel of a finished task → 400 TASK_NOT_CANCELABLE (A2A 1.0.1 §5.4)', async () => {
      const sent = await post(
        `${server.url}/message:send`,
        { message: aMessage('shortlist rust agents') },
        REST_V1,
      );
      const r = await post(`${server.url}/tasks/${sent.body.task.id}:cancel`, '', REST_V1);
      expect(r.status).toBe(400);
      expect(r.body.error.details[0].reason).toBe('TASK_NOT_CANCELABLE');
    });

    it('unsupported content type → 400 CONTENT_TYPE_NOT_SUPPORTED (A2A 1.0.1 §5.4)', async () => {
      const r = await post(`${server.url}/message:send`, 'hello', {
        'content-type': 'text/plain',
        'A2A-Version': '1.0',
      });
      expect(r.status).toBe(400);
      expect(r.body.error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
    });

    it('no A2A-Version header → 400 VERSION_NOT_SUPPORTED (REST is 1.0 only)', async () => {
      const r = await post(`${server.url}/message:send`, { message: aMessage('x') });
      expect(r.status).toBe(400);
      expect(r.body.error.details[0].reason).toBe('VERSION_NOT_SUPPORTED');
    });

    it.each(['application/json', 'application/a2a+json'])(
      'a %s request gets a reply in the same media type',
      async (media) => {
        const r = await post(
          `${server.url}/message:send`,
          { message: aMessage('which harness for java') },
          {
            'content-type': media,
            'A2A-Version': '1.0',
          },
        );
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toContain(media);
        const err = await post(`${server.url}/message:send`, '{', {
          'content-type': media,
          'A2A-Version': '1.0',
        });
        expect(err.headers.get('content-type')).toContain(media);
      },
    );

    it('a GET without a body answers application/json, or a2a+json when Accept asks for it (TCK HTTP_JSON-ERR-001, A2A §11.1)', async () => {
      const plain = await get(`${server.url}/tasks/${randomUUID()}`, {
        'A2A-Version': '1.0',
        Accept: '*/*',
      });
      expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
      const a2a = await get(`${server.url}/tasks/${randomUUID()}`, {
        'A2A-Version': '1.0',
        Accept: 'application/a2a+json',
      });
      expect(a2a.headers.get('content-type')).toMatch(/^application\/a2a\+json/);
    });

    it('bad ListTasks query values → 400', async () => {
      for (const q of [
        'pageSize=0',
        'pageSize=101',
        'pageSize=x',
        'historyLength=-1',
        'status=NOPE',
        'pageToken=%%%',
      ]) {
        const r = await get(`${server.url}/tasks?${q}`, { 'A2A-Version': '1.0' });
        expect([q, r.status]).toEqual([q, 400]);
      }
    });

    it('a body over the limit → 413 in google.rpc.Status shape', async () => {
      const r = await post(
        `${server.url}/message:send`,
        { message: aMessage('x'.repeat(8000)) },
        REST_V1,
      );
      expect(r.status).toBe(413);
      expect(r.body.error.code).toBe(413);
    });

    it('an unknown path → 404 in google.rpc.Status shape', async () => {
      const r = await get(`${server.url}/nothing/here`, { 'A2A-Version': '1.0' });
      expect(r.status).toBe(404);
      expect(r.body.error.status).toBe('NOT_FOUND');
    });
  });

  it('after all of the above the server still answers and nothing is left WORKING', async () => {
    const r = await get(`${server.url}/tasks?pageSize=100`, { 'A2A-Version': '1.0' });
    expect(r.status).toBe(200);
    // Anonymous ListTasks shows only a named context (issue #11.7): read every row from the file.
    const db = new Database(join(server.dir, 'tasks.sqlite3'), { readonly: true });
    const rows = db.prepare('SELECT "status_state" AS "state" FROM "a2a_tasks"').all() as {
      state: string;
    }[];
    db.close();
    const states = rows.map((t) => t.state);
    expect(states.length).toBeGreaterThan(0);
    expect(states.filter((s) => s !== 'TASK_STATE_COMPLETED')).toEqual([]);
  });
});
