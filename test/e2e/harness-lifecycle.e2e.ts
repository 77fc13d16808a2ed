import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { HarnessEvent } from '../../src/modules/harness/protocol/harness-events';
import { HarnessSessionNotFoundError } from '../../src/modules/harness/protocol/harness-protocol.errors';
import { collect, first, harnessSuite, specFrom, typesOf } from '../fakes/harness-fixtures';

const SHELL_SPEC = (timeoutSeconds: number) => `
name: e2e-lifecycle
execution_policy: { allow_read: true, allow_shell: true }
limits: { task_timeout_seconds: ${timeoutSeconds} }
`;

/**
 * True while a process with this pid runs. A zombie counts as gone: it has exited and waits
 * to be reaped, and an orphan's reaper (pid 1 of a container or VM) may take seconds to do it.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A TCP port nobody listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('harness lifecycle: cancel, timeout, provider failures, history', () => {
  const suite = harnessSuite({ 'a.txt': 'a\n' });

  async function session(spec = SHELL_SPEC(30), model: object = {}) {
    return suite.harness.controller.createSession({
      spec: specFrom(spec),
      workingDir: suite.checkout.dir,
      model: {
        provider: 'openai-compatible',
        model: 'fake-model',
        baseUrl: suite.fake.baseUrl,
        ...model,
      },
    });
  }

  it('cancel during a long bash kills its process group and ends run.cancelled', async () => {
    const command = 'echo $$ > shell.pid; sleep 30 & echo $! > sleep.pid; wait';
    suite.fake.enqueue({ toolCalls: [{ name: 'bash', arguments: { command } }] });
    const s = await session();
    const events: HarnessEvent[] = [];
    for await (const e of suite.harness.controller.send(s.id, 'run something long')) {
      events.push(e);
      if (e.type === 'tool.requested') {
        await waitFor(() => existsSync(join(suite.checkout.dir, 'sleep.pid')));
        await suite.harness.controller.cancel(e.run_id);
      }
    }
    expect(typesOf(events).slice(-3)).toEqual([
      'tool.completed',
      'artifact.created',
      'run.cancelled',
    ]);
    expect(first(events, 'tool.completed').data.output).toContain('[killed: cancelled]');
    for (const file of ['shell.pid', 'sleep.pid']) {
      const pid = Number(readFileSync(join(suite.checkout.dir, file), 'utf8'));
      await waitFor(() => !alive(pid), 5000);
    }
    const run = await suite.harness.ledger.getRun(events[0].run_id);
    expect(run).toMatchObject({ status: 'cancelled', error: null });
  });

  it('aborting the send signal aborts the model call (run.cancelled)', async () => {
    suite.fake.enqueue({ hang: true });
    const s = await session();
    const controller = new AbortController();
    const events: HarnessEvent[] = [];
    for await (const e of suite.harness.controller.send(s.id, 'hang', {
      signal: controller.signal,
    })) {
      events.push(e);
      if (e.type === 'model.requested') setTimeout(() => controller.abort(), 100);
    }
    expect(typesOf(events)).toEqual([
      'run.started',
      'message.created',
      'model.requested',
      'run.cancelled',
    ]);
    expect((await suite.harness.ledger.getRun(events[0].run_id)).status).toBe('cancelled');
  });

  it('fails the run when limits.task_timeout_seconds is reached', async () => {
    suite.fake.enqueue({ hang: true });
    const s = await session(SHELL_SPEC(1));
    const events = await collect(suite.harness.controller.send(s.id, 'hang until timeout'));

    expect(events[events.length - 1]).toMatchObject({
      type: 'run.failed',
      data: { code: 'timeout', message: 'task timeout of 1 s reached' },
    });
    const run = await suite.harness.ledger.getRun(events[0].run_id);
    expect(run).toMatchObject({ status: 'failed', error: 'task timeout of 1 s reached' });
  });

  it('fails with what to set when the provider key is missing (no stack trace)', async () => {
    const s = await session(SHELL_SPEC(30), {
      provider: 'openai',
      model: 'gpt-4o-mini',
      baseUrl: undefined,
    });
    const events = await collect(suite.harness.controller.send(s.id, 'hello'));

    const message =
      'OPENAI_API_KEY is not set; export it or use --provider openai-compatible ' +
      '--base-url http://127.0.0.1:11434/v1';
    expect(typesOf(events)).toEqual(['run.started', 'message.created', 'run.failed']);
    expect(first(events, 'run.failed').data).toEqual({ code: 'provider', message });
    expect(first(events, 'run.started').data).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
    });
    const run = await suite.harness.ledger.getRun(events[0].run_id);
    expect(run).toMatchObject({ status: 'failed', error: message, provider: 'openai' });
  });

  it('fails with the URL and a hint when the provider is unreachable', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const s = await session(SHELL_SPEC(30), { baseUrl });
    const events = await collect(suite.harness.controller.send(s.id, 'hello'));

    const failed = first(events, 'run.failed').data;
    expect(failed.code).toBe('provider');
    expect(failed.message).toContain(`cannot reach openai-compatible at ${baseUrl}`);
    expect(failed.message).toContain('check --base-url');
    expect(failed.message).not.toMatch(/\n\s+at /);
  });

  it('keeps the conversation across runs of a session', async () => {
    const s = await session();
    suite.fake.enqueue({ text: 'First answer.' }, { text: 'Second answer.' });
    await collect(suite.harness.controller.send(s.id, 'first question'));
    await collect(suite.harness.controller.send(s.id, 'second question'));

    const sent = suite.fake.requests[suite.fake.requests.length - 1].body.messages;
    expect(sent.map((m) => [m.role, m.content])).toEqual([
      ['system', expect.any(String)],
      ['user', 'first question'],
      ['assistant', 'First answer.'],
      ['user', 'second question'],
    ]);
    const exported = await suite.harness.controller.export(s.id);
    expect(exported.session.id).toBe(s.id);
    expect(exported.runs.map((r) => r.run.prompt_preview)).toEqual([
      'first question',
      'second question',
    ]);
    expect(exported.runs.every((r) => r.events[r.events.length - 1].type === 'run.completed')).toBe(
      true,
    );
  });

  it('stops at model_policy.max_iterations with stop_reason max_iterations', async () => {
    const spec = `${SHELL_SPEC(30)}model_policy: { max_iterations: 2 }\n`;
    const read = { name: 'read_file', arguments: { path: 'a.txt' } };
    suite.fake.enqueue({ toolCalls: [read] }, { text: 'Still going.', toolCalls: [read] });
    const s = await session(spec);
    const events = await collect(suite.harness.controller.send(s.id, 'loop forever'));

    expect(events.filter((e) => e.type === 'model.requested')).toHaveLength(2);
    expect(first(events, 'run.completed').data).toMatchObject({
      status: 'succeeded',
      stop_reason: 'max_iterations',
      iterations: 2,
      text: 'Still going.',
    });
    expect(suite.fake.pending).toBe(0);
  });

  it('rejects a prompt to an unknown session on the first next()', async () => {
    await expect(
      collect(suite.harness.controller.send('no-such-session', 'hi')),
    ).rejects.toBeInstanceOf(HarnessSessionNotFoundError);
  });
});
