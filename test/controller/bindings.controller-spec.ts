import { aJsonRpcRequest, aLegacyMessage, aMessage, V1 } from '../fixtures/builders';
import { InjectedApp, startInjectedApp } from '../utils/inject-app';

const SHORTLIST = { superqodeSkill: 'harness-shortlist' };
const REST_V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

/**
 * Wire shapes of every binding's controller (JSON-RPC 1.0 and 0.3, HTTP+JSON, Agent Card,
 * health) on the real app and Fastify pipeline via inject(): the controller test tier.
 */
describe('transport controllers (controller tier, Fastify inject)', () => {
  let app: InjectedApp;
  beforeAll(async () => {
    app = await startInjectedApp();
  });
  afterAll(() => app.close());

  describe('Agent Card', () => {
    it('GET answers the card with its interfaces, ETag and Cache-Control; If-None-Match → 304', async () => {
      const r = await app.get(`${app.url}/.well-known/agent-card.json`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.headers.get('cache-control')).toBe('public, max-age=300');
      const bindings = (
        r.body.supportedInterfaces as { protocolBinding: string; protocolVersion: string }[]
      ).map((i) => `${i.protocolBinding} ${i.protocolVersion}`);
      expect(bindings).toEqual(['JSONRPC 1.0', 'JSONRPC 0.3', 'HTTP+JSON 1.0']);
      const etag = r.headers.get('etag')!;
      const again = await app.get(`${app.url}/.well-known/agent-card.json`, {
        'if-none-match': etag,
      });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    });
  });

  describe('health', () => {
    it('GET /health answers ok with the durable store reachable and writable', async () => {
      const r = await app.get(`${app.url}/health`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        status: 'ok',
        taskStore: { durable: true, reachable: true, writable: true },
      });
    });
  });

  describe('JSON-RPC 1.0', () => {
    it('SendMessage → a finished task; GetTask returns it; an unknown task is -32001', async () => {
      const sent = await app.post(
        app.url,
        aJsonRpcRequest(
          'SendMessage',
          { message: aMessage('list coding harnesses'), metadata: SHORTLIST },
          3,
        ),
        V1,
      );
      expect(sent.status).toBe(200);
      expect(sent.headers.get('a2a-version')).toBe('1.0');
      expect(sent.body).toMatchObject({ jsonrpc: '2.0', id: 3 });
      const task = sent.body.result.task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      const got = await app.post(app.url, aJsonRpcRequest('GetTask', { id: task.id }), V1);
      expect(got.body.result.id).toBe(task.id);
      const missing = await app.post(app.url, aJsonRpcRequest('GetTask', { id: 'no-such' }), V1);
      expect(missing.body.error.code).toBe(-32001);
    });
  });

  describe('JSON-RPC 0.3', () => {
    it('message/send → a task in 0.3 shape; tasks/get returns it', async () => {
      const sent = await app.post(
        app.url,
        aJsonRpcRequest('message/send', {
          message: aLegacyMessage('list coding harnesses'),
          metadata: SHORTLIST,
        }),
      );
      expect(sent.status).toBe(200);
      expect(sent.headers.get('a2a-version')).toBe('0.3');
      expect(sent.body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      const got = await app.post(
        app.url,
        aJsonRpcRequest('tasks/get', { id: sent.body.result.id }),
      );
      expect(got.body.result).toMatchObject({ kind: 'task', id: sent.body.result.id });
    });
  });

  describe('HTTP+JSON', () => {
    it('POST /message:send → 200 task; GET /tasks/{id}; cancel of a finished task → 400 TASK_NOT_CANCELABLE', async () => {
      const sent = await app.post(
        `${app.url}/message:send`,
        { message: aMessage('list coding harnesses'), metadata: SHORTLIST },
        REST_V1,
      );
      expect(sent.status).toBe(200);
      const { id } = sent.body.task;
      const got = await app.get(`${app.url}/tasks/${id}`, { 'A2A-Version': '1.0' });
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(id);
      const cancel = await app.post(`${app.url}/tasks/${id}:cancel`, {}, REST_V1);
      expect(cancel.status).toBe(400);
      expect(cancel.body.error.details[0].reason).toBe('TASK_NOT_CANCELABLE');
      const missing = await app.get(`${app.url}/tasks/no-such`, { 'A2A-Version': '1.0' });
      expect(missing.status).toBe(404);
      expect(missing.body.error.status).toBe('NOT_FOUND');
    });
  });
});
