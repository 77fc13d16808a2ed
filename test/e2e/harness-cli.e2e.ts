import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessEvent } from '../../src/modules/harness/protocol/harness-events';
import type { HarnessSessionExport } from '../../src/modules/harness/protocol/harness-records';
import { HarnessCommandsModule } from '../../src/modules/harness/commands/harness-commands.module';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import { runCommandInProcessWithoutSettings } from '../utils/in-process-cli';

const CLI = join(__dirname, '../../dist/cli.js');

interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI asynchronously (the fake model server lives in this process, so the
 * event loop must keep serving it), without any provider key in the environment.
 */
function cli(args: string[], cwd: string): Promise<CliRun> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/API_KEY$/.test(k) && !k.startsWith('SUPERQODE_')),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env, timeout: 30_000 },
      (err, stdout, stderr) => {
        const status = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

/**
 * The same command in process (nest-commander-testing on the harness command module, issue #13):
 * in `cwd`, without any provider key or SUPERQODE_ variable, with the CLI's exit-code rules. The
 * spawned {@link cli} stays for the smoke tests of the built CLI (a run, exit 3, a refused start).
 */
async function cliInProcess(args: string[], cwd: string): Promise<CliRun> {
  const r = await runCommandInProcessWithoutSettings([HarnessCommandsModule], args, cwd);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const SPEC = `
name: cli-e2e
execution_policy:
  allow_read: true
  allow_write: true
  permission_rules:
    - { tool: write_file, action: ask }
`;

describe('superqode harness (built CLI against a fake OpenAI-compatible server)', () => {
  let fake: FakeOpenAiServer;
  let checkout: TempCheckout;
  let store: string;
  let specFile: string;

  beforeAll(async () => {
    if (!existsSync(CLI))
      throw new Error('dist/cli.js is missing: run `npm run build` (npm test does)');
    fake = await FakeOpenAiServer.start();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    checkout = tempCheckout({ 'greeting.txt': 'hello world\n' });
    store = join(checkout.dir, '.superqode', 'ledger.sqlite3');
    specFile = join(checkout.dir, 'harness.yaml');
    writeFileSync(specFile, SPEC);
  });
  afterEach(() => checkout.remove());

  const model = () => [
    '--provider',
    'openai-compatible',
    '--model',
    'fake-model',
    '--base-url',
    fake.baseUrl,
  ];
  const harnessRun = (...prompt: string[]) =>
    cli(
      ['harness', 'run', '--spec', specFile, ...model(), '--harness-store', store, ...prompt],
      checkout.dir,
    );
  const harnessRunInProcess = (...prompt: string[]) =>
    cliInProcess(
      ['harness', 'run', '--spec', specFile, ...model(), '--harness-store', store, ...prompt],
      checkout.dir,
    );

  it('run streams text and tool lines, exit 0; runs/show/export read the ledger', async () => {
    fake.enqueue(
      {
        text: 'Let me look. ',
        toolCalls: [{ name: 'read_file', arguments: { path: 'greeting.txt' } }],
      },
      { text: 'It says hello world.' },
    );
    const run = await harnessRun('what', 'does', 'greeting.txt', 'say?');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Let me look.');
    expect(run.stdout).toContain('→ read_file: greeting.txt');
    expect(run.stdout).toMatch(/← read_file ok \(\d+ ms, \d+ bytes\)/);
    expect(run.stdout).toContain('It says hello world.');
    expect(run.stderr).toMatch(/done \(2 model calls, 36 tokens\)/);
    expect(fake.requests[fake.requests.length - 2].body.messages[1]).toMatchObject({
      role: 'user',
      content: 'what does greeting.txt say?',
    });

    const runs = await cliInProcess(['harness', 'runs', '--harness-store', store], checkout.dir);
    expect(runs.status).toBe(0);
    const [line] = runs.stdout.trim().split('\n');
    const [runId, status] = line.split(/\s+/);
    expect(status).toBe('succeeded');
    expect(line).toContain('openai-compatible:fake-model  what does greeting.txt say?');

    const show = await cliInProcess(
      ['harness', 'show', runId, '--harness-store', store],
      checkout.dir,
    );
    expect(show.status).toBe(0);
    expect(show.stdout).toMatch(/^#1 \S+ run\.started /m);
    expect(show.stdout).toMatch(/ run\.completed /);

    const json = await cliInProcess(
      ['harness', 'show', runId, '--json', '--harness-store', store],
      checkout.dir,
    );
    const detail = JSON.parse(json.stdout) as {
      run: { session_id: string };
      events: HarnessEvent[];
    };
    expect(detail.events.map((e) => e.sequence)).toEqual(detail.events.map((_, i) => i + 1));

    const exported = await cliInProcess(
      ['harness', 'export', detail.run.session_id, '--harness-store', store],
      checkout.dir,
    );
    expect(exported.status).toBe(0);
    const session = JSON.parse(exported.stdout) as HarnessSessionExport;
    expect(session.session.spec_name).toBe('cli-e2e');
    expect(session.runs).toHaveLength(1);
    expect(session.runs[0].events).toEqual(detail.events);
  });

  it('exit 1 with one message for unknown runs and sessions', async () => {
    fake.enqueue({ text: 'ok' });
    expect((await harnessRunInProcess('hi')).status).toBe(0);
    for (const args of [
      ['harness', 'show', 'no-such-run'],
      ['harness', 'export', 'no-such-session'],
      ['harness', 'resume', 'no-such-run', 'approve'],
    ]) {
      const r = await cliInProcess([...args, '--harness-store', store], checkout.dir);
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toMatch(/^error: harness (run|session) no-such-\w+ not found$/);
    }
    const missing = await cliInProcess(
      ['harness', 'runs', '--harness-store', join(checkout.dir, 'none.db')],
      checkout.dir,
    );
    expect(missing.status).toBe(1);
    expect(existsSync(join(checkout.dir, 'none.db'))).toBe(false);
  });

  it('a run that needs approval exits 3; resume approve finishes it, exit 0', async () => {
    fake.enqueue({
      toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'yes\n' } }],
    });
    const paused = await harnessRun('write out.txt');
    expect(paused.status).toBe(3);
    expect(paused.stdout).toContain('? approval needed: write_file out.txt');
    const runId = /run (\S+) needs approval/.exec(paused.stderr)?.[1] as string;
    expect(existsSync(join(checkout.dir, 'out.txt'))).toBe(false);

    fake.enqueue({ text: 'Written.' });
    const resumed = await cli(
      ['harness', 'resume', runId, 'approve', '--harness-store', store],
      checkout.dir,
    );
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toContain('✓ approved write_file');
    expect(resumed.stdout).toContain('files changed: out.txt');
    expect(readFileSync(join(checkout.dir, 'out.txt'), 'utf8')).toBe('yes\n');
  });

  it('--json prints one event per line', async () => {
    fake.enqueue({ text: 'plain answer' });
    const r = await cliInProcess(
      ['harness', 'run', '--json', '--spec', specFile, ...model(), '--harness-store', store, 'hi'],
      checkout.dir,
    );
    expect(r.status).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as HarnessEvent);
    expect(events[0].type).toBe('run.started');
    expect(events[events.length - 1]).toMatchObject({
      type: 'run.completed',
      data: { status: 'succeeded' },
    });
  });

  it('a missing provider key fails the run with what to set, exit 1, no stack trace', async () => {
    const r = await cli(
      [
        'harness',
        'run',
        '--spec',
        specFile,
        '--provider',
        'anthropic',
        '--model',
        'claude-x',
        '--harness-store',
        store,
        'hi',
      ],
      checkout.dir,
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'error: ANTHROPIC_API_KEY is not set; export it or use --provider openai-compatible --base-url http://127.0.0.1:11434/v1',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const runs = await cliInProcess(['harness', 'runs', '--harness-store', store], checkout.dir);
    expect(runs.stderr).toBe('');
    expect(runs.stdout).toMatch(/\sfailed\s/);
  });

  it('shows a progress line on stderr while waiting; a timeout fails the run, exit 1', async () => {
    writeFileSync(specFile, `${SPEC}limits: { task_timeout_seconds: 3 }\n`);
    fake.enqueue({ hang: true });
    const r = await harnessRunInProcess('wait for it');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/… waiting for the model \(\d s\)\n/);
    expect(r.stderr).toContain('error: task timeout of 3 s reached');
  });

  it('validate: exit 0 for a valid spec, 1 with the field for an invalid one', async () => {
    const ok = await cliInProcess(['harness', 'validate', specFile], checkout.dir);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe(`valid: cli-e2e (${specFile})\n`);

    const bad = join(checkout.dir, 'bad.yaml');
    writeFileSync(bad, 'name: bad\nexecution_policy: { allow_wirte: true }\n');
    const r = await cliInProcess(['harness', 'validate', bad], checkout.dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('execution_policy.allow_wirte: unrecognized key');
    expect(r.stdout).toBe('');
  });
});
