import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, aLegacyMessage, aMessage, get, post, V1 } from '../fixtures/builders';
import { OPERATOR_TOKEN, aKey, aKeySecret, bearer } from '../fixtures/credentials';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import type { RawEnv } from '../../src/config/env.schema';
import { TestServer, startTestServer } from '../utils/test-app';

/** Every bash call waits for approval (INPUT_REQUIRED). */
const ASK_SPEC = `name: access-ask
inherits: coding
execution_policy:
  allow_shell: true
  permission_rules:
    - { tool: bash, action: ask }
`;

type Task = { id: string; contextId: string; status: { state: string } };

/** A harness task that asks to run `id -un > name` and pauses in INPUT_REQUIRED. */
async function pausedTask(
  url: string,
  fake: FakeOpenAiServer,
  name: string,
  headers: Record<string, string> = {},
): Promise<Task> {
  fake.enqueue(
    { toolCalls: [{ name: 'bash', arguments: { command: `id -un > ${name}` } }] },
    { text: 'done' },
  );
  const r = await post(
    url,
    aJsonRpcRequest('SendMessage', {
      message: aMessage('record who runs this', {
        metadata: { superqodeSkill: 'superqode-harness' },
      }),
    }),
    { ...V1, ...headers },
  );
  expect(r.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  return r.body.result.task;
}

/** An "approve" reply on a binding; `ids` picks which of taskId/contextId the message carries. */
function approve(
  url: string,
  binding: 'jsonrpc-1.0' | 'jsonrpc-0.3' | 'rest',
  ids: Record<string, string>,
  headers: Record<string, string> = {},
) {
  if (binding === 'jsonrpc-0.3')
    return post(url, aJsonRpcRequest('message/send', { message: aLegacyMessage('approve', ids) }), {
      'content-type': 'application/json',
      ...headers,
    });
  if (binding === 'rest')
    return post(
      `${url}/message:send`,
      { message: aMessage('approve', ids) },
      { ...V1, ...headers },
    );
  return post(url, aJsonRpcRequest('SendMessage', { message: aMessage('approve', ids) }), {
    ...V1,
    ...headers,
  });
}

function harnessEnv(
  fake: FakeOpenAiServer,
  checkout: TempCheckout,
  spec: string,
  extra: RawEnv = {},
): RawEnv {
  return {
    SUPERQODE_A2A_HARNESS_ENABLED: true,
    SUPERQODE_A2A_HARNESS_SPEC: spec,
    SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
    SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
    SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
    SUPERQODE_A2A_WORKING_DIR: checkout.dir,
    SUPERQODE_A2A_UNDERSTAND_REQUESTS: false,
    ...extra,
  };
}

describe('Harness access on follow-up messages and other callers’ runs (issue #12)', () => {
  let fake: FakeOpenAiServer;
  let checkout: TempCheckout;
  let spec: string;
  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    checkout = tempCheckout({ 'README.md': '# demo\n' });
    spec = join(mkdtempSync(join(tmpdir(), 'sq-access-')), 'spec.yaml');
    writeFileSync(spec, ASK_SPEC);
  });
  afterAll(async () => {
    await fake.close();
    checkout.remove();
  });

  it('an approval reply from a caller the new access setting excludes gets 401 on every binding; nothing runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-access-restart-'));
    const marker = join(checkout.dir, 'marker-restart');
    let server = await startTestServer(harnessEnv(fake, checkout, spec), { dir });
    const task = await pausedTask(server.url, fake, 'marker-restart');
    await server.close();

    server = await startTestServer(
      harnessEnv(fake, checkout, spec, {
        SUPERQODE_A2A_HARNESS_ACCESS: 'operator',
        SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
      }),
      { dir },
    );
    try {
      const before = fake.requests.length;
      for (const binding of ['jsonrpc-1.0', 'jsonrpc-0.3', 'rest'] as const) {
        const replies: Record<string, string>[] = [
          { taskId: task.id, contextId: task.contextId },
          { taskId: task.id },
          { contextId: task.contextId },
        ];
        for (const ids of replies) {
          const r = await approve(server.url, binding, ids);
          expect([binding, ids, r.status]).toEqual([binding, ids, 401]);
          expect(r.headers.get('www-authenticate')).toBe('Bearer realm="superqode-a2a"');
        }
      }
      expect(fake.requests.length).toBe(before);
      expect(existsSync(marker)).toBe(false);
      const stored = await post(server.url, aJsonRpcRequest('GetTask', { id: task.id }), V1);
      expect(stored.body.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    } finally {
      await server.close();
    }

    // The same reply still works where that caller is allowed.
    server = await startTestServer(harnessEnv(fake, checkout, spec), { dir });
    try {
      const r = await approve(server.url, 'jsonrpc-1.0', {
        taskId: task.id,
        contextId: task.contextId,
      });
      expect(r.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(existsSync(marker)).toBe(true);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('another caller’s paused run (ownership)', () => {
    const secret = aKeySecret();
    const owner = bearer(aKey(secret, { label: 'owner', scopes: ['harness'] }).key);
    const other = bearer(aKey(secret, { label: 'other', scopes: ['harness'] }).key);
    let server: TestServer;
    let task: Task;
    beforeAll(async () => {
      server = await startTestServer(
        harnessEnv(fake, checkout, spec, {
          SUPERQODE_A2A_HARNESS_ACCESS: 'keyed',
          SUPERQODE_A2A_KEY_SECRET: secret,
          SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
        }),
      );
      task = await pausedTask(server.url, fake, 'marker-owned', owner);
    });
    afterAll(() => server.close());

    it.each([
      ['another harness-scoped key', () => other],
      ['an anonymous caller', () => ({})],
      ['the operator', () => bearer(OPERATOR_TOKEN)],
    ])('%s can neither approve, cancel nor subscribe to it', async (_who, headers) => {
      const h = headers();
      const reply = await approve(server.url, 'jsonrpc-1.0', { taskId: task.id }, h);
      // Unknown to every other caller (a below-tier one too: it is not its context, so nothing to refuse).
      expect([reply.status, reply.body.error.code]).toEqual([200, -32001]);
      const cancel = await post(server.url, aJsonRpcRequest('CancelTask', { id: task.id }), {
        ...V1,
        ...h,
      });
      expect(cancel.body.error.code).toBe(-32001);
      const restCancel = await post(`${server.url}/tasks/${task.id}:cancel`, {}, { ...V1, ...h });
      expect(restCancel.status).toBe(404);
      const subscribe = await get(`${server.url}/tasks/${task.id}:subscribe`, {
        'A2A-Version': '1.0',
        ...h,
      });
      expect(subscribe.status).toBe(404);
      expect(existsSync(join(checkout.dir, 'marker-owned'))).toBe(false);
    });

    it('a context bound to the owner is refused to another allowed caller', async () => {
      const r = await approve(server.url, 'rest', { contextId: task.contextId }, other);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/belongs to another caller/);
    });

    it('the owner approves and the command runs', async () => {
      const r = await approve(
        server.url,
        'rest',
        { taskId: task.id, contextId: task.contextId },
        owner,
      );
      expect(r.body.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(existsSync(join(checkout.dir, 'marker-owned'))).toBe(true);
    });
  });
});
