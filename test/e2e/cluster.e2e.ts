import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import type { Message, StreamResponse, Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import type { Client } from '@a2a-js/sdk/client';
import { DataSource } from 'typeorm';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import {
  RoundRobinProxy,
  TEST_REDIS_URL,
  clusterServicesAvailable,
  kill,
  startInstance,
} from '../utils/cluster';
import type { Instance } from '../utils/cluster';
import { createTestDatabase } from '../utils/postgres';
import type { TestDatabase } from '../utils/postgres';
import { anSdkSendRequest } from '../fixtures/sdk-requests';

const SPEC = `
name: e2e-cluster
execution_policy:
  allow_read: true
  allow_write: true
  allow_shell: true
  permission_rules:
    - { tool: write_file, action: ask }
`;

const request = (text: string, msg: Partial<Message> = {}, returnImmediately = false) =>
  anSdkSendRequest(text, { message: msg, returnImmediately });

/** Every event of `stream`; `onFirst` runs once the first one is in. */
async function collect(
  stream: AsyncGenerator<StreamResponse>,
  onFirst: () => void = () => undefined,
): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const e of stream) if (events.push(e) === 1) onFirst();
  return events;
}

/** A bash command that runs until the test creates `gate` in the checkout (no fixed sleep). */
const untilGate = (gate: string, then: string) =>
  `until [ -e ${gate} ]; do sleep 0.05; done; ${then}`;

const asTask = (r: Message | Task) => r as Task;
const stateOf = (e: StreamResponse) =>
  e.payload?.$case === 'statusUpdate' ? e.payload.value.status?.state : undefined;

(clusterServicesAvailable() ? describe : describe.skip)(
  'two instances on one PostgreSQL and Redis behind a round-robin proxy (issue #15)',
  () => {
    let fake: FakeOpenAiServer;
    let checkout: TempCheckout;
    let database: TestDatabase;
    let specDir: string;
    let proxy: RoundRobinProxy;
    let client: Client;
    let env: Record<string, string>;
    const instances: Instance[] = [];

    beforeAll(async () => {
      fake = await FakeOpenAiServer.start();
      checkout = tempCheckout({ 'README.md': '# demo\n' });
      database = await createTestDatabase();
      specDir = mkdtempSync(join(tmpdir(), 'sq-cluster-spec-'));
      writeFileSync(join(specDir, 'spec.yaml'), SPEC);
      proxy = await RoundRobinProxy.start();
      env = {
        SUPERQODE_A2A_DATABASE_URL: database.url,
        SUPERQODE_A2A_REDIS_URL: TEST_REDIS_URL ?? '',
        SUPERQODE_A2A_MIGRATE: 'true',
        SUPERQODE_A2A_PUBLIC_URL: proxy.url,
        SUPERQODE_A2A_HARNESS_ENABLED: 'true',
        SUPERQODE_A2A_HARNESS_SPEC: join(specDir, 'spec.yaml'),
        SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
        SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
        SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
        SUPERQODE_A2A_WORKING_DIR: checkout.dir,
        SUPERQODE_A2A_UNDERSTAND_REQUESTS: 'false',
        SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: '0',
        SUPERQODE_A2A_LEASE_MS: '1500',
        SUPERQODE_A2A_HEARTBEAT_MS: '250',
        SUPERQODE_A2A_LOG_LEVEL: 'warn',
      };
      instances.push(...(await Promise.all([startInstance(env), startInstance(env)])));
      proxy.targets = instances.map((i) => i.url);
      client = await new ClientFactory().createFromUrl(proxy.url);
    }, 60_000);

    afterAll(async () => {
      for (const i of instances) await kill(i);
      await proxy?.close();
      await fake?.close();
      checkout?.remove();
      rmSync(specDir, { recursive: true, force: true });
      await database?.drop();
    });

    /** Waits until the fake model has received `count` requests in all. */
    async function modelCalled(count: number): Promise<void> {
      for (let i = 0; i < 400 && fake.requests.length < count; i++)
        await new Promise((r) => setTimeout(r, 25));
      expect(fake.requests.length).toBeGreaterThanOrEqual(count);
    }

    it('send, get and list land on different instances and agree', async () => {
      fake.enqueue({ text: 'All done.' });
      const at = proxy.upcoming;
      const sent = asTask(await client.sendMessage(request('say done')));
      expect(sent.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const got = await client.getTask({ id: sent.id, tenant: '', historyLength: undefined });
      const listed = await client.listTasks({
        tenant: '',
        contextId: sent.contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: undefined,
        pageToken: '',
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      });
      expect(proxy.served.slice(-3)).toEqual([at, 1 - at, at]);
      expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(got.artifacts).toEqual(sent.artifacts);
      expect(listed.tasks.map((t) => t.id)).toEqual([sent.id]);
    });

    it('a stream served by one instance ends COMPLETED; the other reads the same task', async () => {
      fake.enqueue({ text: 'Streamed answer.' });
      const events = await collect(client.sendMessageStream(request('stream it')));
      expect(events[0].payload?.$case).toBe('task');
      expect(stateOf(events[events.length - 1])).toBe(TaskState.TASK_STATE_COMPLETED);
      const id = (events[0].payload!.value as Task).id;
      const got = await client.getTask({ id, tenant: '', historyLength: undefined });
      expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(JSON.stringify(got.artifacts)).toContain('Streamed answer.');
    });

    it('SubscribeToTask on the other instance follows the run in order to its stored end, without repeats', async () => {
      const before = fake.requests.length;
      fake.enqueue(
        {
          toolCalls: [
            {
              name: 'bash',
              arguments: { command: untilGate('sub.gate', 'echo slept'), timeout_seconds: 60 },
            },
          ],
        },
        { text: 'Slept well.' },
      );
      const started = asTask(await client.sendMessage(request('sleep a while', {}, true)));
      const runner = proxy.served[proxy.served.length - 1];
      await modelCalled(before + 1);
      const stream = client.resubscribeTask({ id: started.id, tenant: '' });
      // The run goes on once the subscriber on the other instance has its first event.
      const events = await collect(stream, () => writeFileSync(join(checkout.dir, 'sub.gate'), ''));
      expect(proxy.served[proxy.served.length - 1]).toBe(1 - runner);
      const first = events[0].payload!.value as Task;
      expect(first.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      const last = events[events.length - 1];
      expect(stateOf(last)).toBe(TaskState.TASK_STATE_COMPLETED);
      const statuses = events
        .filter((e) => e.payload?.$case === 'statusUpdate')
        .map((e) => JSON.stringify(e.payload!.value));
      expect(new Set(statuses).size).toBe(statuses.length);
      const stored = await client.getTask({ id: started.id, tenant: '', historyLength: undefined });
      expect(JSON.stringify(stored.artifacts)).toContain('Slept well.');
      const streamedArtifacts = events.filter((e) => e.payload?.$case === 'artifactUpdate');
      expect(JSON.stringify(streamedArtifacts)).toContain('Slept well.');
      expect(JSON.stringify(last.payload!.value)).toEqual(
        JSON.stringify({ ...(last.payload!.value as object), status: stored.status }),
      );
    }, 60_000);

    it('CancelTask on the other instance stops the run where it runs: CANCELED, run cancelled', async () => {
      const before = fake.requests.length;
      fake.enqueue({
        toolCalls: [
          { name: 'bash', arguments: { command: 'sleep 30 && echo late', timeout_seconds: 60 } },
        ],
      });
      const started = asTask(await client.sendMessage(request('sleep very long', {}, true)));
      const runner = proxy.served[proxy.served.length - 1];
      await modelCalled(before + 1);
      const canceled = await client.cancelTask({ id: started.id, tenant: '', metadata: {} });
      expect(proxy.served[proxy.served.length - 1]).toBe(1 - runner);
      expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      const ds = await new DataSource({
        type: 'postgres',
        url: database.url,
        poolSize: 1,
      }).initialize();
      try {
        const runId = (canceled.metadata as Record<string, string>).superqodeRunId;
        let run: { status: string }[] = [];
        for (let i = 0; i < 100; i++) {
          run = await ds.query('SELECT "status" FROM "runs" WHERE "id" = $1', [runId]);
          if (run[0]?.status !== 'running') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(run[0].status).toBe('cancelled');
      } finally {
        await ds.destroy();
      }
      const got = await client.getTask({ id: started.id, tenant: '', historyLength: undefined });
      expect(got.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    }, 60_000);

    it('a message naming a task WORKING on the other instance gets the error the runner gives (-32004); the task runs once', async () => {
      const before = fake.requests.length;
      fake.enqueue(
        {
          toolCalls: [
            {
              name: 'bash',
              arguments: { command: untilGate('once.gate', 'echo slept'), timeout_seconds: 60 },
            },
          ],
        },
        { text: 'Finished once.' },
      );
      const started = asTask(await client.sendMessage(request('sleep then finish', {}, true)));
      const runner = proxy.served[proxy.served.length - 1];
      await modelCalled(before + 1);
      const followUp = (url: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: {
              message: {
                messageId: `follow-${Date.now()}`,
                role: 'ROLE_USER',
                parts: [{ text: 'and another thing' }],
                taskId: started.id,
                contextId: started.contextId,
              },
            },
          }),
        }).then((r) => r.json() as Promise<{ error?: { code: number; message: string } }>);
      const elsewhere = await followUp(proxy.url);
      expect(proxy.served[proxy.served.length - 1]).toBe(1 - runner);
      const here = await followUp(instances[runner].url);
      expect(elsewhere.error?.code).toBe(-32004);
      expect(elsewhere.error?.message).toContain(`Task ${started.id} is still running`);
      expect(elsewhere.error).toEqual(here.error);
      writeFileSync(join(checkout.dir, 'once.gate'), '');
      let task = started;
      for (let i = 0; i < 200 && task.status?.state !== TaskState.TASK_STATE_COMPLETED; i++) {
        await new Promise((r) => setTimeout(r, 50));
        task = await client.getTask({ id: started.id, tenant: '', historyLength: undefined });
      }
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(JSON.stringify(task.artifacts)).toContain('Finished once.');
      expect(task.history?.filter((m) => m.role === started.history![0].role)).toHaveLength(1);
      expect(fake.requests.length).toBe(before + 2);
    }, 60_000);

    it('an approval reply continuing an INPUT_REQUIRED task works on the other instance', async () => {
      fake.enqueue({
        toolCalls: [{ name: 'write_file', arguments: { path: 'approved.txt', content: 'yes\n' } }],
      });
      const paused = asTask(await client.sendMessage(request('write approved.txt')));
      expect(paused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const asked = proxy.served[proxy.served.length - 1];
      fake.enqueue({ text: 'Wrote it.' });
      const done = asTask(
        await client.sendMessage(
          request('approve', { taskId: paused.id, contextId: paused.contextId }),
        ),
      );
      expect(proxy.served[proxy.served.length - 1]).toBe(1 - asked);
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(readFileSync(join(checkout.dir, 'approved.txt'), 'utf8')).toBe('yes\n');
    }, 60_000);

    it('SIGKILL of the running instance: a subscriber on the other sees it end FAILED after the lease, naming the dead owner', async () => {
      const before = fake.requests.length;
      fake.enqueue({
        toolCalls: [
          { name: 'bash', arguments: { command: 'sleep 30 && echo late', timeout_seconds: 60 } },
        ],
      });
      const started = asTask(await client.sendMessage(request('sleep until killed', {}, true)));
      const runner = instances[proxy.served[proxy.served.length - 1]];
      const survivor = instances.find((i) => i !== runner)!;
      await modelCalled(before + 1);
      proxy.targets = [survivor.url, survivor.url];
      const stream = client.resubscribeTask({ id: started.id, tenant: '' });
      const firstEvent = await stream.next();
      expect((firstEvent.value as StreamResponse).payload?.$case).toBe('task');
      const pid = runner.proc.pid;
      await kill(runner);
      const rest: StreamResponse[] = [];
      for await (const e of stream) rest.push(e);
      const last = rest[rest.length - 1];
      expect(stateOf(last)).toBe(TaskState.TASK_STATE_FAILED);
      expect(JSON.stringify(last.payload!.value)).toContain(`:${pid}:`);
    }, 60_000);
  },
);
