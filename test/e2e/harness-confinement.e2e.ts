import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  existsSync,
  linkSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { aKeySecret, bearer } from '../fixtures/credentials';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import type { FakeTurn } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import { TestServer, startTestServer } from '../utils/test-app';

const CLI = join(__dirname, '../../dist/cli.js');

const SPEC = `
name: confinement-e2e
execution_policy:
  allow_read: true
  allow_write: true
  allow_shell: true
  allowed_commands: [echo, ls, cat, git]
  permission_rules:
    - { tool: bash, pattern: "rm *", action: ask }
    - { tool: "*", pattern: "**/.env*", action: deny }
`;

/** Known secret values the server is configured with (#12.3). */
const SECRETS = {
  token: `op-token-${randomUUID()}`,
  keySecret: aKeySecret(),
  providerKey: `sk-provider-${randomUUID()}`,
  dbPass: `db-pass-${randomUUID()}`,
};

describe('Harness command checks, file confinement and secret scrubbing over A2A (#12.3-6)', () => {
  let fake: FakeOpenAiServer;
  let checkout: TempCheckout;
  let outside: string;
  let server: TestServer;
  const saved = { ...process.env };

  beforeAll(async () => {
    // Provider keys and other secret-looking variables come from the server's environment.
    process.env.OPENAI_COMPATIBLE_API_KEY = SECRETS.providerKey;
    process.env.DB_PASS = SECRETS.dbPass;
    fake = await FakeOpenAiServer.start();
    checkout = tempCheckout({
      'README.md': '# demo\n',
      'src/a.ts': 'export const a = 1;\n',
      '.env': 'API_TOKEN=from-dot-env-1234\n',
      'victim.txt': 'keep me\n',
      'creds.txt': `${Object.values(SECRETS).join('\n')}\n`,
    });
    outside = mkdtempSync(join(tmpdir(), 'sq-outside-'));
    writeFileSync(join(outside, 'target.txt'), 'outside\n');
    linkSync(join(outside, 'target.txt'), join(checkout.dir, 'hard.txt'));
    symlinkSync('.env', join(checkout.dir, 'notes.txt'));
    symlinkSync('.git', join(checkout.dir, 'meta'));
    const specFile = join(mkdtempSync(join(tmpdir(), 'sq-spec-')), 'spec.yaml');
    writeFileSync(specFile, SPEC);
    server = await startTestServer({
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_SPEC: specFile,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
      SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
      SUPERQODE_A2A_WORKING_DIR: checkout.dir,
      SUPERQODE_A2A_TOKEN: SECRETS.token,
      SUPERQODE_A2A_KEY_SECRET: SECRETS.keySecret,
    });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
    checkout?.remove();
    rmSync(outside, { recursive: true, force: true });
    process.env = saved;
  });

  /** One task whose model makes `calls` in turn, then answers `answer`; returns what came back. */
  async function run(calls: FakeTurn['toolCalls'], answer = 'Done.') {
    fake.enqueue({ text: 'Working.', toolCalls: calls }, { text: answer });
    const before = fake.requests.length;
    const contextId = randomUUID();
    const reply = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('do it', { contextId }) }),
      { ...V1, ...bearer(SECRETS.token) },
    );
    const task = reply.body.result.task;
    const sentBack = fake.requests.slice(before).flatMap((r) => r.body.messages);
    const toolResults = sentBack
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.stringify(m.content));
    return { reply: JSON.stringify(reply.body), task, toolResults, sessionId: `a2a-${contextId}` };
  }

  it('refuses `echo \\>& <cmd>` under allowed_commands and an `rm *` ask rule (#12.4)', async () => {
    const { task, toolResults } = await run([
      { name: 'bash', arguments: { command: "echo \\>& bash -c 'touch pwned'" } },
      { name: 'bash', arguments: { command: 'echo \\>& rm victim.txt' } },
      { name: 'bash', arguments: { command: 'echo hello && ls src' } },
    ]);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(existsSync(join(checkout.dir, 'pwned'))).toBe(false);
    expect(readFileSync(join(checkout.dir, 'victim.txt'), 'utf8')).toBe('keep me\n');
    expect(toolResults[0]).toContain('denied by policy');
    expect(toolResults[1]).toContain('denied by policy');
    expect(toolResults[2]).toContain('hello\\na.ts');
  });

  it('refuses a write to .git/config or a hook, even without a rule; other edits work (#12.5)', async () => {
    const fsmonitor = {
      path: '.git/config',
      old_string: '[core]',
      new_string: '[core]\n\tfsmonitor = "sh -c id"',
    };
    const { task, toolResults } = await run([
      { name: 'edit_file', arguments: fsmonitor },
      {
        name: 'write_file',
        arguments: { path: 'meta/hooks/post-checkout', content: '#!/bin/sh\nid\n' },
      },
      { name: 'edit_file', arguments: { path: 'src/a.ts', old_string: '= 1', new_string: '= 2' } },
    ]);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(readFileSync(join(checkout.dir, '.git/config'), 'utf8')).not.toContain('fsmonitor');
    expect(existsSync(join(checkout.dir, '.git/hooks/post-checkout'))).toBe(false);
    expect(toolResults.slice(0, 2).every((r) => r.includes('denied by policy'))).toBe(true);
    expect(readFileSync(join(checkout.dir, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
  });

  it('matches rules on the resolved path and refuses hard-linked writes (#12.6)', async () => {
    const { reply, task, toolResults } = await run([
      { name: 'read_file', arguments: { path: 'notes.txt' } },
      { name: 'write_file', arguments: { path: 'hard.txt', content: 'pwned\n' } },
      { name: 'read_file', arguments: { path: 'README.md' } },
    ]);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(toolResults[0]).toContain('denied by policy');
    expect(toolResults.join()).not.toContain('from-dot-env');
    expect(reply).not.toContain('from-dot-env');
    expect(toolResults[1]).toContain('2 hard links');
    expect(readFileSync(join(outside, 'target.txt'), 'utf8')).toBe('outside\n');
    expect(toolResults[2]).toContain('# demo');
  });

  it('keeps configured secrets out of replies, the stored task, the model and harness export (#12.3)', async () => {
    const { reply, task, toolResults, sessionId } = await run(
      [
        { name: 'bash', arguments: { command: 'cat creds.txt' } },
        { name: 'read_file', arguments: { path: 'creds.txt' } },
      ],
      `The token is ${SECRETS.token} and the password ${SECRETS.dbPass}.`,
    );
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const stored = await post(server.url, aJsonRpcRequest('GetTask', { id: task.id }), {
      ...V1,
      ...bearer(SECRETS.token),
    });
    const exported = await exportSession(sessionId, join(server.dir, 'harness.sqlite3'));
    expect(exported).toContain('"type": "tool.completed"');
    for (const [where, text] of Object.entries({
      reply,
      stored: JSON.stringify(stored.body),
      model: toolResults.join('\n'),
      exported,
    })) {
      for (const [name, value] of Object.entries(SECRETS)) {
        expect(`${where}/${name}: ${text.includes(value)}`).toBe(`${where}/${name}: false`);
      }
    }
    expect(toolResults.join()).toContain('[redacted]');
    expect(reply).toContain('The token is [redacted] and the password [redacted].');
  });
});

function exportSession(sessionId: string, store: string): Promise<string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/API_KEY$/.test(k) && !k.startsWith('SUPERQODE_')),
  );
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, 'harness', 'export', sessionId, '--harness-store', store],
      { env, timeout: 30_000 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}
