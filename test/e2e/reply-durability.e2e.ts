import { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { spawnHealthyMain } from '../utils/built-server';

const CONCURRENT = 40;

const start = (env: Record<string, string>) => spawnHealthyMain(env, 100);

function sigkill(proc: ChildProcess): Promise<unknown> {
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  return exited;
}

/** Task states after a restart, by id (GetTask on the same file). */
async function statesAfterRestart(
  env: Record<string, string>,
  ids: string[],
): Promise<Record<string, string>> {
  const again = await start(env);
  try {
    const states: Record<string, string> = {};
    for (const id of ids) {
      const got = await post(again.url, aJsonRpcRequest('GetTask', { id }), V1);
      states[id] = got.body.result?.status?.state ?? `error ${got.body.error?.code}`;
    }
    return states;
  } finally {
    await sigkill(again.proc);
  }
}

describe('A reply names only durable tasks, SIGKILL right after it (issue #14)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sq-reply-durable-'));
  let n = 0;
  const envFor = (): Record<string, string> => ({
    SUPERQODE_A2A_TASK_STORE_PATH: join(dir, `tasks-${++n}.sqlite3`),
    SUPERQODE_A2A_HARNESS_STORE_PATH: ':memory:',
    SUPERQODE_A2A_HARNESS_ENABLED: 'false',
    SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: '0',
    SUPERQODE_A2A_GLOBAL_PER_DAY: '0',
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('every COMPLETED reply received before the kill is COMPLETED after the restart (concurrent blocking sends)', async () => {
    const env = envFor();
    const first = await start(env);
    const answered: string[] = [];
    let killed: Promise<unknown> | undefined;
    const sends = Array.from({ length: CONCURRENT }, async () => {
      const r = await post(
        first.url,
        aJsonRpcRequest('SendMessage', { message: aMessage('which harness for rust') }),
        V1,
      ).catch(() => undefined);
      const task = r?.body?.result?.task;
      if (killed || !task) return;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      answered.push(task.id);
      // Killed as soon as a quarter of the replies are in: the server is still busy with the rest.
      if (answered.length === CONCURRENT / 4) killed = sigkill(first.proc);
    });
    await Promise.all(sends);
    await (killed ?? sigkill(first.proc));
    expect(answered.length).toBeGreaterThanOrEqual(CONCURRENT / 4);
    const states = await statesAfterRestart(env, answered);
    expect(states).toEqual(Object.fromEntries(answered.map((id) => [id, 'TASK_STATE_COMPLETED'])));
  });

  it('a task named by a returnImmediately reply or by the first SSE event exists after the restart', async () => {
    const env = envFor();
    const first = await start(env);
    const sent = await post(
      first.url,
      aJsonRpcRequest('SendMessage', {
        message: aMessage('which harness for rust'),
        configuration: { returnImmediately: true },
      }),
      V1,
    );
    const res = await fetch(first.url, {
      method: 'POST',
      headers: { ...V1, accept: 'text/event-stream' },
      body: JSON.stringify(
        aJsonRpcRequest('SendStreamingMessage', { message: aMessage('which harness for rust') }),
      ),
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    await sigkill(first.proc);
    const streamed = JSON.parse(text.slice(text.indexOf('data:') + 5, text.indexOf('\n\n'))).result
      .task.id as string;
    const immediate = sent.body.result.task.id as string;
    const states = await statesAfterRestart(env, [immediate, streamed]);
    expect(Object.values(states).every((s) => s.startsWith('TASK_STATE_'))).toBe(true);
  });
});
