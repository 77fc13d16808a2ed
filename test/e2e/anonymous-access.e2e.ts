import { Logger } from '@nestjs/common';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { aKey, aKeySecret, bearer } from '../fixtures/credentials';
import { withSlowExecutor } from '../utils/executor-override';
import { TestServer, startTestServer } from '../utils/test-app';

const REMOTE = { SUPERQODE_A2A_HOST: '0.0.0.0', SUPERQODE_A2A_ALLOW_REMOTE: true };
const rpc = (url: string, method: string, params: unknown, headers: Record<string, string> = {}) =>
  post(url, aJsonRpcRequest(method, params), { ...V1, ...headers });

describe('Anonymous access does not depend on the client address (issue #11.7)', () => {
  const secret = aKeySecret();
  let server: TestServer;
  beforeAll(async () => {
    // A trusted proxy hop, so the two callers below really have different addresses.
    server = await startTestServer(
      { SUPERQODE_A2A_TRUSTED_PROXY_HOPS: 1, SUPERQODE_A2A_KEY_SECRET: secret },
      { customize: withSlowExecutor },
    );
  });
  afterAll(() => server.close());

  const alice = { 'X-Forwarded-For': '203.0.113.1' };
  const bob = { 'X-Forwarded-For': '203.0.113.2' };

  it('another anonymous caller reads, subscribes to and cancels a task by its id', async () => {
    const sent = await rpc(
      server.url,
      'SendMessage',
      { message: aMessage('slow 40'), configuration: { returnImmediately: true } },
      alice,
    );
    const { id } = sent.body.result.task;
    expect((await rpc(server.url, 'GetTask', { id }, bob)).body.result.id).toBe(id);
    expect((await get(`${server.url}/tasks/${id}`, { 'A2A-Version': '1.0', ...bob })).status).toBe(
      200,
    );
    const canceled = await rpc(server.url, 'CancelTask', { id }, bob);
    expect(canceled.body.result.status.state).toBe('TASK_STATE_CANCELED');
    // Subscribing finds the task (a terminal task cannot be subscribed to), not TaskNotFound.
    const subscribed = await rpc(server.url, 'SubscribeToTask', { id }, bob);
    expect(subscribed.body.error.code).not.toBe(-32001);
    expect(subscribed.body.error.message).toMatch(/terminal/);
  });

  it('ListTasks for an anonymous caller returns only the tasks of the contextId it names, none without one', async () => {
    const sent = await rpc(
      server.url,
      'SendMessage',
      { message: aMessage('which harness for rust') },
      alice,
    );
    const { id, contextId } = sent.body.result.task;
    for (const who of [alice, bob]) {
      expect((await rpc(server.url, 'ListTasks', {}, who)).body.result).toMatchObject({
        tasks: [],
        totalSize: 0,
      });
      expect(
        (await get(`${server.url}/tasks`, { 'A2A-Version': '1.0', ...who })).body.tasks,
      ).toEqual([]);
      const named = await rpc(server.url, 'ListTasks', { contextId }, who);
      expect(named.body.result.tasks.map((t: { id: string }) => t.id)).toEqual([id]);
    }
  });

  it('a key holder keeps strict ownership: it cannot read an anonymous task, anonymous callers cannot read its tasks', async () => {
    const key = bearer(aKey(secret).key);
    const anon = await rpc(
      server.url,
      'SendMessage',
      { message: aMessage('which harness for go') },
      alice,
    );
    expect(
      (await rpc(server.url, 'GetTask', { id: anon.body.result.task.id }, key)).body.error.code,
    ).toBe(-32001);
    const keyed = await rpc(
      server.url,
      'SendMessage',
      { message: aMessage('which harness for go') },
      key,
    );
    const { id, contextId } = keyed.body.result.task;
    expect((await rpc(server.url, 'GetTask', { id }, alice)).body.error.code).toBe(-32001);
    expect((await rpc(server.url, 'ListTasks', { contextId }, alice)).body.result.tasks).toEqual(
      [],
    );
    expect(
      (await rpc(server.url, 'ListTasks', {}, key)).body.result.tasks.map(
        (t: { id: string }) => t.id,
      ),
    ).toEqual([id]);
  });
});

describe('Trusted proxy hops default to 0, on remote binds too (issue #11.7)', () => {
  it('a direct client cannot pick its own address with X-Forwarded-For on an --allow-remote server', async () => {
    const server = await startTestServer({ ...REMOTE, SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 2 });
    try {
      const as = (ip: string) => rpc(server.url, 'GetTask', { id: 'x' }, { 'X-Forwarded-For': ip });
      expect((await as('203.0.113.7')).status).toBe(200);
      expect((await as('203.0.113.8')).status).toBe(200);
      expect((await as('203.0.113.9')).status).toBe(429);
    } finally {
      await server.close();
    }
  });

  it.each([
    [
      'warns at start when hops >= 1, saying the proxy must set the header',
      { SUPERQODE_A2A_TRUSTED_PROXY_HOPS: 2 },
      1,
    ],
    ['stays quiet with the default (0)', {}, 0],
  ])('%s', async (_n, env, count) => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const server = await startTestServer({ ...REMOTE, ...env });
      await server.close();
      const warnings = warn.mock.calls
        .map((args) => String(args[0]))
        .filter((w) => /X-Forwarded-For/.test(w));
      expect(warnings).toHaveLength(count);
      if (count) expect(warnings[0]).toMatch(/trusts 2 proxy hops.*must set X-Forwarded-For/);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('Anonymous callers and harness sessions (issue #11.7)', () => {
  let fake: FakeOpenAiServer;
  let checkout: TempCheckout;
  let server: TestServer;
  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    checkout = tempCheckout({ 'README.md': '# demo\n' });
    const spec = join(mkdtempSync(join(tmpdir(), 'sq-spec-')), 'spec.yaml');
    writeFileSync(
      spec,
      'name: anon-e2e\nexecution_policy:\n  allow_read: true\n  allow_write: true\n  permission_rules:\n    - { tool: write_file, action: ask }\n',
    );
    server = await startTestServer({
      SUPERQODE_A2A_TRUSTED_PROXY_HOPS: 1,
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_SPEC: spec,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
      SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
      SUPERQODE_A2A_WORKING_DIR: checkout.dir,
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
    checkout.remove();
  });

  it('another anonymous caller may read a paused harness task by id, but not approve it nor use its context', async () => {
    const alice = { 'X-Forwarded-For': '203.0.113.21' };
    const bob = { 'X-Forwarded-For': '203.0.113.22' };
    fake.enqueue(
      {
        text: 'Writing.',
        toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'x\n' } }],
      },
      { text: 'Wrote it.' },
    );
    const asked = (
      await rpc(server.url, 'SendMessage', { message: aMessage('write out.txt') }, alice)
    ).body.result.task;
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await rpc(server.url, 'GetTask', { id: asked.id }, bob)).body.result.id).toBe(asked.id);
    for (const extra of [
      { taskId: asked.id },
      { taskId: asked.id, contextId: asked.contextId },
      { contextId: asked.contextId },
    ]) {
      for (const text of ['approve', 'which harness fits rust']) {
        // The second text routes to the shortlist: the harness context is still refused.
        const r = await rpc(server.url, 'SendMessage', { message: aMessage(text, extra) }, bob);
        expect(r.body.error).toMatchObject({
          code: -32602,
          message: expect.stringMatching(/another caller/),
        });
      }
    }
    expect(existsSync(join(checkout.dir, 'out.txt'))).toBe(false);
    const still = (await rpc(server.url, 'GetTask', { id: asked.id }, alice)).body.result;
    expect(still.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = await rpc(
      server.url,
      'SendMessage',
      { message: aMessage('approve', { taskId: asked.id }) },
      alice,
    );
    expect(done.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(existsSync(join(checkout.dir, 'out.txt'))).toBe(true);
  });
});
