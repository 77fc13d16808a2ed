import { HarnessLedgerService } from '../../src/modules/harness/ledger/harness-ledger.service';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { harnessServerSuite, sseResults } from '../fakes/harness-server';
import type { HarnessServerSuite } from '../fakes/harness-server';

/** A spec whose checks are a passing step and an `npm test`-style step that fails with exit 3. */
const spec = (onFailure: string) => `
name: checks-e2e
execution_policy:
  allow_read: true
  allow_write: true
  sandbox: local
checks:
  enabled: true
  on_failure: ${onFailure}
  custom_steps:
    - { name: lint, command: 'echo lint ok; echo "secret=[$CHECKS_E2E_SECRET_TOKEN]"', timeout_seconds: 30 }
    - { name: unit tests, command: 'echo "1 failing test"; exit 3', timeout_seconds: 30 }
`;

type Task = {
  id: string;
  status: {
    state: string;
    message: { parts: { text: string }[]; metadata: Record<string, string> };
  };
  artifacts: { name: string; parts: { text: string }[] }[];
};

async function runTask(suite: HarnessServerSuite): Promise<Task> {
  suite.fake.enqueue(
    {
      toolCalls: [
        { name: 'write_file', arguments: { path: 'src/a.ts', content: 'export const a = 2;\n' } },
      ],
    },
    { text: 'Changed a.' },
  );
  const r = await post(
    suite.server.url,
    aJsonRpcRequest('SendMessage', { message: aMessage('change a') }),
    V1,
  );
  return r.body.result.task;
}

function checkLines(task: Task): Record<string, unknown>[] {
  const checks = task.artifacts.find((a) => a.name === 'checks');
  if (!checks)
    throw new Error(`no checks artifact in ${task.artifacts.map((a) => a.name).join(', ')}`);
  return checks.parts[0].text.split('\n').map((l) => JSON.parse(l));
}

beforeAll(() => {
  process.env.CHECKS_E2E_SECRET_TOKEN = 'do-not-leak';
});
afterAll(() => {
  delete process.env.CHECKS_E2E_SECRET_TOKEN;
});

describe('checks.custom_steps with on_failure: report (issue #16)', () => {
  const suite = harnessServerSuite(spec('report'), { 'src/a.ts': 'export const a = 1;\n' });

  it('run after the last model turn: each is a ledger event and a checks line; the task completes', async () => {
    const task = await runTask(suite);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const lines = checkLines(task);
    expect(lines.map((l) => [l.name, l.command, l.exit_code, l.ok])).toEqual([
      ['lint', 'echo lint ok; echo "secret=[$CHECKS_E2E_SECRET_TOKEN]"', 0, true],
      ['unit tests', 'echo "1 failing test"; exit 3', 3, false],
    ]);
    expect(lines[1].output_tail).toBe('1 failing test');
    expect(typeof lines[1].duration_ms).toBe('number');
    // Same allowlisted environment as the bash tool: the server's secrets are not passed.
    expect(lines[0].output_tail).toBe('lint ok\nsecret=[]');
    const ledger = suite.server.app.get(HarnessLedgerService, { strict: false });
    const detail = await ledger.showRun(task.status.message.metadata.superqodeRunId);
    const events = detail.events.map((e) => e.type);
    expect(events.filter((t) => t === 'check.completed')).toHaveLength(2);
    expect(events.indexOf('check.completed')).toBeGreaterThan(
      events.lastIndexOf('model.completed'),
    );
  });

  it('a streaming caller sees one progress line per check before the end', async () => {
    suite.fake.enqueue({ text: 'Nothing to change.' });
    const res = await fetch(suite.server.url, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify(aJsonRpcRequest('SendStreamingMessage', { message: aMessage('look') })),
    });
    const texts = (await sseResults(res))
      .map((r) => r.statusUpdate?.status?.message?.parts?.[0]?.text)
      .filter(Boolean);
    expect(texts).toEqual(
      expect.arrayContaining([
        'check lint passed: echo lint ok; echo "secret=[$CHECKS_E2E_SECRET_TOKEN]"',
        'check unit tests failed (exit 3): echo "1 failing test"; exit 3',
      ]),
    );
  });
});

describe('checks.custom_steps with on_failure: fail (issue #16)', () => {
  const suite = harnessServerSuite(spec('fail'), { 'src/a.ts': 'export const a = 1;\n' });

  it('a failed check fails the task naming it; answer, diff and checks are still returned', async () => {
    const task = await runTask(suite);
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message.parts[0].text).toBe(
      'checks failed: unit tests (`echo "1 failing test"; exit 3`: exit 3)',
    );
    expect(task.artifacts.map((a) => a.name)).toEqual(['answer', 'changes.diff', 'checks']);
    expect(checkLines(task)[1]).toMatchObject({ name: 'unit tests', exit_code: 3, ok: false });
  });
});
