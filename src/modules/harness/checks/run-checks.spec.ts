import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import { checkLine } from '../commands/harness-event-printer';
import { CHECK_OUTPUT_TAIL_CHARS, checksFailedMessage, runChecks } from './run-checks';
import type { CheckResult } from './run-checks';

const specWith = (checks: string) =>
  parseHarnessSpec(
    `name: checks-unit\nexecution_policy:\n  sandbox: local\nchecks:\n${checks}`,
    'unit.yaml',
    process.cwd(),
  ).spec;

describe(runChecks.name, () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'sq-checks-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs nothing when checks are not enabled', async () => {
    const spec = specWith('  custom_steps: [{ name: a, command: "exit 1" }]\n');
    await expect(runChecks(spec, dir, new AbortController().signal, jest.fn())).resolves.toEqual(
      [],
    );
  });

  it('runs each step in order in the working directory, recording each result as it ends', async () => {
    const spec = specWith(
      '  enabled: true\n  custom_steps:\n    - { name: where, command: pwd }\n    - { name: bad, command: "echo oops >&2; exit 4" }\n',
    );
    const recorded: CheckResult[] = [];
    const results = await runChecks(
      spec,
      dir,
      new AbortController().signal,
      async (r) => void recorded.push(r),
    );
    expect(recorded).toEqual(results);
    expect(results.map((r) => [r.name, r.ok, r.exit_code, r.timed_out])).toEqual([
      ['where', true, 0, false],
      ['bad', false, 4, false],
    ]);
    expect(results[0].output_tail).toBe(dir);
    expect(results[1].output_tail).toBe('oops');
    expect(checksFailedMessage([results[1]])).toBe(
      'checks failed: bad (`echo oops >&2; exit 4`: exit 4)',
    );
  });

  it('kills a step at its own timeout and keeps only the tail of a long output', async () => {
    const spec = specWith(
      '  enabled: true\n  custom_steps:\n    - { name: slow, command: "seq 1 5000; sleep 30", timeout_seconds: 1 }\n',
    );
    const [slow] = await runChecks(spec, dir, new AbortController().signal, async () => undefined);
    expect(slow).toMatchObject({ ok: false, timed_out: true, exit_code: null });
    expect(slow.output_tail.endsWith('5000\n[killed: timeout]')).toBe(true);
    expect(slow.output_tail.length).toBe(CHECK_OUTPUT_TAIL_CHARS + 1);
    expect(checkLine(slow)).toMatch(/^check slow timed out in \d+ ms: seq 1 5000; sleep 30$/);
  });
});
