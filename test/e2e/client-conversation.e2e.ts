import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { superqodeInProcess, tempHome } from '../fakes/client-cli';
import { harnessServerSuite } from '../fakes/harness-server';

const SPEC = `
name: client-conversation-e2e
execution_policy:
  allow_read: true
  allow_write: true
  permission_rules:
    - { tool: write_file, action: ask }
`;

/** The answer the fake model streams, in 6-character deltas. */
const ANSWER = 'Done: created hello.txt with a greeting for you.';

describe('The client holds a conversation with our harness (issue #17)', () => {
  const suite = harnessServerSuite(SPEC, { 'README.md': '# demo\n' });
  let home: string;
  const run = (args: string[]) => superqodeInProcess(args, { home });
  beforeEach(() => {
    home = tempHome();
  });

  const askToWrite = (path: string) =>
    suite.fake.enqueue({
      toolCalls: [{ name: 'write_file', arguments: { path, content: 'hello\n' } }],
    });

  it('streams by default: the answer is printed as one text, state changes as status lines', async () => {
    suite.fake.enqueue({ text: ANSWER });
    const r = await run(['connect', 'a2a', suite.server.url, '--send', 'say what you did']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`\n${ANSWER}\n`);
    expect(r.stderr).toMatch(/· task \S+ (submitted|working)/);
    expect(r.stderr).toContain('· completed');
    expect(r.stdout).toMatch(/task: +\S+ completed/);
  });

  it('--no-stream makes one blocking call with the same answer', async () => {
    suite.fake.enqueue({ text: ANSWER });
    const r = await run(['connect', 'a2a', suite.server.url, '--no-stream', '--send', 'go']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(ANSWER);
    expect(r.stderr).not.toContain('· completed');
  });

  it('input-required without a TTY prints the task id and the reply command (exit 3); a2a call --task approves it', async () => {
    askToWrite('hello.txt');
    const first = await run([
      'connect',
      'a2a',
      suite.server.url,
      '--send',
      'create hello.txt',
      '--save',
      'dev',
    ]);
    expect(first.code).toBe(3);
    const id = /task (\S+) is waiting for your reply \(input-required\)/.exec(first.stdout)?.[1];
    expect(id).toBeDefined();
    expect(first.stdout).toContain(`reply with: superqode a2a call dev --task ${id} "REPLY"`);
    expect(first.stdout).toContain('write_file wants to write hello.txt');
    const saved = JSON.parse(readFileSync(join(home, '.superqode/a2a.json'), 'utf8'));
    expect(saved.connections.dev.taskId).toBe(id);

    suite.fake.enqueue({ text: 'Wrote hello.txt.' });
    const reply = await run(['a2a', 'call', 'dev', '--task', id!, 'approve']);
    expect(reply.code).toBe(0);
    expect(reply.stdout).toContain('Wrote hello.txt.');
    expect(reply.stdout).toMatch(new RegExp(`task: +${id} completed`));
    expect(readFileSync(join(suite.checkout.dir, 'hello.txt'), 'utf8')).toBe('hello\n');
    const after = JSON.parse(readFileSync(join(home, '.superqode/a2a.json'), 'utf8'));
    expect(after.connections.dev.taskId).toBeUndefined();
  });

  it('the saved connection keeps the pending task: a2a call NAME "approve" continues it', async () => {
    askToWrite('second.txt');
    const first = await run([
      'connect',
      'a2a',
      suite.server.url,
      '--send',
      'create second.txt',
      '--save',
      'dev',
    ]);
    expect(first.code).toBe(3);
    const id = /task (\S+) is waiting/.exec(first.stdout)?.[1];
    suite.fake.enqueue({ text: 'Wrote second.txt.' });
    const reply = await run(['a2a', 'call', 'dev', 'approve']);
    expect(reply.code).toBe(0);
    expect(reply.stdout).toMatch(new RegExp(`task: +${id} completed`));
    expect(existsSync(join(suite.checkout.dir, 'second.txt'))).toBe(true);
  });

  it('a saved pending task that ended meanwhile (cancelled) is dropped: the next call starts a new task', async () => {
    askToWrite('third.txt');
    const first = await run([
      'connect',
      'a2a',
      suite.server.url,
      '--send',
      'create third.txt',
      '--save',
      'later',
    ]);
    expect(first.code).toBe(3);
    const id = /task (\S+) is waiting/.exec(first.stdout)?.[1] ?? '';
    expect((await run(['a2a', 'cancel', 'later', id])).code).toBe(0);
    suite.fake.enqueue({ text: 'Hello again.' });
    const next = await run(['a2a', 'call', 'later', 'say hello']);
    expect(next.stderr).not.toMatch(/terminal state/);
    expect(next.code).toBe(0);
    expect(next.stdout).not.toContain(id);
    expect(next.stdout).toContain('Hello again.');
  });

  it('--no-wait prints the task id and how to follow it; a2a get shows it; a2a cancel cancels it', async () => {
    suite.fake.enqueue({ text: 'slow answer', hang: true });
    const started = await run([
      'connect',
      'a2a',
      suite.server.url,
      '--no-wait',
      '--send',
      'take your time',
      '--save',
      'dev',
    ]);
    expect(started.code).toBe(0);
    const id = /task: +(\S+)/.exec(started.stdout)?.[1];
    expect(id).toBeDefined();
    expect(started.stdout).toContain(`cancel it:   superqode a2a cancel dev ${id}`);
    const got = await run(['a2a', 'get', 'dev', id!]);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`task: +${id} (submitted|working)`));
    const context = /context: +(\S+)/.exec(started.stdout)?.[1];
    const listed = await run(['a2a', 'tasks', 'dev', '--context', context!]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${id}  `);
    const none = await run(['a2a', 'tasks', 'dev', '--context', context!, '--status', 'completed']);
    expect(none.stdout).toBe('no tasks\n');
    // Without --context an anonymous caller's list is empty: the saved conversation is named.
    const unnamed = await run(['a2a', 'tasks', 'dev']);
    expect(unnamed.stdout).toContain(`--context ${context} is this conversation`);
    const canceled = await run(['a2a', 'cancel', 'dev', id!]);
    expect(canceled.code).toBe(0);
    expect(canceled.stdout).toMatch(new RegExp(`task: +${id} canceled`));
    const again = await run(['a2a', 'get', suite.server.url, id!]);
    expect(again.stdout).toMatch(/canceled/);
  });

  it('an idle stream ends the wait (exit 4) printing the task id and how to follow or cancel it', async () => {
    suite.fake.enqueue({ text: 'starting a very long answer', hang: true });
    const r = await run([
      'connect',
      'a2a',
      suite.server.url,
      '--idle-timeout',
      '1',
      '--send',
      'go slowly',
      '--save',
      'dev',
    ]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: the stream: no event within 1 s (--idle-timeout)');
    const id = /task (\S+) may still be running on the agent/.exec(r.stderr)?.[1];
    expect(id).toBeDefined();
    expect(r.stderr).toContain(`follow it:   superqode a2a subscribe dev ${id}`);
    expect(r.stderr).toContain(`cancel it:   superqode a2a cancel dev ${id}`);
    const canceled = await run(['a2a', 'cancel', 'dev', id!]);
    expect(canceled.code).toBe(0);
    expect(canceled.stdout).toMatch(new RegExp(`task: +${id} canceled`));
  });

  it.each([
    [['a2a', 'get', 'dev'], /missing required argument/i],
    [
      ['a2a', 'call', 'dev', 'x', '--idle-timeout', 'soon'],
      /--idle-timeout must be a whole number/,
    ],
    [['a2a', 'tasks', 'dev', '--status', 'done'], /--status takes one of/],
    [['connect', 'a2a', 'http://x', '--task', ''], /--task takes an id/],
  ])('usage error %j exits 2', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.all).toMatch(message);
  });

  it('a2a subscribe follows a task started with --no-wait to its end, printing the answer', async () => {
    suite.fake.enqueue({ text: 'a paced answer, piece by piece', chunkDelayMs: 150 });
    const started = await run([
      'connect',
      'a2a',
      suite.server.url,
      '--no-wait',
      '--send',
      'pace it',
      '--save',
      'dev',
    ]);
    const id = /task: +(\S+)/.exec(started.stdout)?.[1];
    const r = await run(['a2a', 'subscribe', 'dev', id!]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`task: +${id} completed`));
    expect(r.stdout + r.stderr).toContain('piece by piece');
  });
});
