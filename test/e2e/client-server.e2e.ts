import { randomUUID } from 'node:crypto';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { A2AClient } from '../../src/modules/client/a2a-client';
import { A2AClientError, A2AClientErrorCode } from '../../src/modules/client/client.errors';
import { ClientTrace } from '../../src/modules/client/client-trace';
import type { SpokenInterface } from '../../src/modules/client/interface-choice';
import { viewResult } from '../../src/modules/client/result-view';
import { aKey, aKeySecret, OPERATOR_TOKEN } from '../fixtures/credentials';
import { withSlowExecutor } from '../utils/executor-override';
import { TestServer, startTestServer } from '../utils/test-app';

async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

function asTask(r: unknown): Task {
  expect(viewResult(r).kind).toBe('task');
  return r as Task;
}

const INTERFACES: SpokenInterface[] = ['JSONRPC 1.0', 'JSONRPC 0.3', 'HTTP+JSON 1.0'];

describe('A2AClient against our own server (issue #6)', () => {
  const secret = aKeySecret();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      {
        SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
        SUPERQODE_A2A_KEY_SECRET: secret,
        SUPERQODE_A2A_ALLOW_ANONYMOUS: false,
      },
      { customize: withSlowExecutor },
    );
  });
  afterAll(() => server.close());

  it("picks the card's first interface (JSON-RPC 1.0) and says why", async () => {
    const client = await A2AClient.connect(server.url, { token: OPERATOR_TOKEN });
    expect(client.interface.chosen.spoken).toBe('JSONRPC 1.0');
    expect(client.interface.reason).toMatch(/first choice/);
    expect(client.interface.verdicts.map((v) => v.spoken)).toEqual(INTERFACES);
    expect(client.auth.usedScheme).toBe('bearer');
  });

  it('without a token on a server that requires one, warns before the call, which is refused', async () => {
    const trace = new ClientTrace();
    const client = await A2AClient.connect(server.url, { trace });
    expect(client.auth.warnings.join()).toMatch(/requires bearer/);
    await expect(client.send('hello')).rejects.toThrow(/requires a credential/);
  });

  describe.each(INTERFACES)('%s', (spoken) => {
    describe.each([
      ['operator bearer token', () => OPERATOR_TOKEN],
      ['signed API key', () => aKey(secret).key],
    ])('with a %s', (_label, token) => {
      let client: A2AClient;
      beforeAll(async () => {
        client = await A2AClient.connect(`${server.url}/`, { token: token(), prefer: [spoken] });
        expect(client.interface.chosen.spoken).toBe(spoken);
      });

      it('a blocking send completes; the view normalises state and parts', async () => {
        const task = asTask(await client.send('which harness for rust'));
        const view = viewResult(task);
        expect(view.state).toBe('completed');
        expect(view.text.join('\n')).toMatch(/not a measurement/);
      });

      it('GetTask returns the task, history trimmed by historyLength', async () => {
        const task = asTask(await client.send('shortlist harnesses for python'));
        expect((await client.getTask(task.id)).id).toBe(task.id);
        expect((await client.getTask(task.id, { historyLength: 0 })).history).toEqual([]);
      });

      it('a non-blocking send returns at once; cancel ends it CANCELED', async () => {
        const task = asTask(await client.send('slow 50', { blocking: false }));
        expect(viewResult(task).state).not.toBe('completed');
        expect(viewResult(await client.cancel(task.id)).state).toBe('canceled');
      });

      it('cancel of a completed task fails (TaskNotCancelable)', async () => {
        const task = asTask(await client.send('which harness for go'));
        await expect(client.cancel(task.id)).rejects.toThrow(/cancel/i);
      });

      it('a stream yields the task, ticks in order, and ends completed', async () => {
        const views = (await collect(client.stream('slow 3'))).map(viewResult);
        expect(views[0].kind).toBe('task');
        expect(views.filter((v) => v.kind === 'artifact').map((v) => v.text[0])).toEqual([
          'tick 1',
          'tick 2',
          'tick 3',
        ]);
        expect(views[views.length - 1]).toMatchObject({ kind: 'status', state: 'completed' });
      });

      it('subscribe to a running task yields the task first, then live events to completion', async () => {
        const task = asTask(await client.send('slow 5', { blocking: false }));
        const views = (await collect(client.subscribe(task.id))).map(viewResult);
        expect(views[0]).toMatchObject({ kind: 'task', taskId: task.id });
        expect(views[views.length - 1].state).toBe('completed');
      });

      it('a second send with the same contextId stays in that context', async () => {
        const first = asTask(await client.send('which harness for rust'));
        const second = asTask(await client.send('and for go?', { contextId: first.contextId }));
        expect(second.contextId).toBe(first.contextId);
      });

      it("ListTasks finds the context's tasks (not part of 0.3: a clear error there)", async () => {
        const first = asTask(await client.send('which harness for rust'));
        if (spoken === 'JSONRPC 0.3') {
          await expect(client.listTasks()).rejects.toMatchObject({
            code: A2AClientErrorCode.Unsupported,
          });
          return;
        }
        const page = await client.listTasks({ contextId: first.contextId });
        expect(page.tasks.map((t) => t.id)).toEqual([first.id]);
      });

      it('GetExtendedAgentCard is refused locally when the card does not advertise it; forced, the server refuses', async () => {
        await expect(client.getExtendedCard()).rejects.toBeInstanceOf(A2AClientError);
        await expect(client.getExtendedCard({ force: true })).rejects.toThrow();
      });

      it('GetTask of an unknown id fails with TaskNotFound', async () => {
        await expect(client.getTask(randomUUID())).rejects.toThrow(/not found/i);
      });
    });
  });
});
