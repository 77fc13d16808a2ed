import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { aKey, aKeySecret, bearer } from '../fixtures/credentials';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import { TestServer, startTestServer } from '../utils/test-app';

const SPEC = `
name: a2a-e2e
execution_policy:
  allow_read: true
  allow_write: true
  allow_shell: true
  permission_rules:
    - { tool: write_file, pattern: "ask-*", action: ask }
`;
const REST = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

/** Reads SSE frames of a JSON-RPC stream into their `result` objects. */
async function streamResults(res: Response): Promise<Record<string, any>[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .map((b) =>
      b
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5))
        .join(''),
    )
    .filter(Boolean)
    .map((d) => {
      const frame = JSON.parse(d);
      if (!frame.result) throw new Error(`error frame: ${d}`);
      return frame.result;
    });
}

describe('The superqode-harness skill over A2A (issue #5)', () => {
  const secret = aKeySecret();
  let fake: FakeOpenAiServer;
  let checkout: TempCheckout;
  let server: TestServer;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    checkout = tempCheckout({ 'README.md': '# demo\n', 'src/a.ts': 'export const a = 1;\n' });
    const specFile = join(mkdtempSync(join(tmpdir(), 'sq-spec-')), 'spec.yaml');
    writeFileSync(specFile, SPEC);
    server = await startTestServer({
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_SPEC: specFile,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
      SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
      SUPERQODE_A2A_WORKING_DIR: checkout.dir,
      SUPERQODE_A2A_KEY_SECRET: secret,
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
    checkout.remove();
  });

  it('the card lists harness-shortlist and superqode-harness, with examples', async () => {
    const card = (await get(`${server.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' }))
      .body;
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual([
      'harness-shortlist',
      'superqode-harness',
    ]);
    expect(card.skills[1]).toMatchObject({ name: 'SuperQode Harness' });
    expect(card.defaultInputModes).toEqual(['text/plain', 'text/markdown', 'application/json']);
    expect(card.defaultOutputModes).toEqual(['text/plain', 'application/json', 'text/x-diff']);
  });

  it('routes "which harness…" to the shortlist and everything else to the harness', async () => {
    const r = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('which harness is open source?') }),
      V1,
    );
    expect(r.body.result.task.status.message.metadata.superqodeSkill).toBe('harness-shortlist');
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    'what coding agent should I use?',
    'which agent supports ollama',
    'I need a harness for Python with approvals',
    'compare claude code and codex',
  ])(
    'with both skills served, the question "%s" goes to the shortlist (issue #11.14)',
    async (text) => {
      const before = fake.requests.length;
      const r = await post(
        server.url,
        aJsonRpcRequest('SendMessage', { message: aMessage(text) }),
        V1,
      );
      expect(r.body.result.task.status.message.metadata.superqodeSkill).toBe('harness-shortlist');
      expect(fake.requests.length).toBe(before);
    },
  );

  it('streams the answer as artifact chunks before completion; the status carries the session id', async () => {
    fake.enqueue({ text: 'The answer grows in pieces over time.', chunkDelayMs: 5 });
    const contextId = randomUUID();
    const res = await fetch(server.url, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify(
        aJsonRpcRequest('SendStreamingMessage', {
          message: aMessage('explain the repo', { contextId }),
        }),
      ),
    });
    const results = await streamResults(res);
    expect(results.every((r) => r !== undefined)).toBe(true);
    const chunks = results
      .filter((r) => r.artifactUpdate?.artifact?.name === 'answer')
      .map((r) => r.artifactUpdate);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0].append ?? false).toBe(false);
    expect(chunks.slice(1).every((c) => c.append === true)).toBe(true);
    expect(chunks.at(-1).lastChunk).toBe(true);
    expect(chunks.map((c) => c.artifact.parts[0].text).join('')).toBe(
      'The answer grows in pieces over time.',
    );
    const final = results.at(-1)!.statusUpdate.status;
    expect(final.state).toBe('TASK_STATE_COMPLETED');
    expect(final.message.metadata.superqodeSessionId).toBe(`a2a-${contextId}`);
  });

  it('a later task in the same context continues the session history', async () => {
    const contextId = randomUUID();
    fake.enqueue({ text: 'first answer' }, { text: 'second answer' });
    await post(
      server.url,
      aJsonRpcRequest('SendMessage', {
        message: aMessage('remember the word kiwi', { contextId }),
      }),
      V1,
    );
    const before = fake.requests.length;
    const second = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('what word?', { contextId }) }),
      V1,
    );
    expect(second.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const sent = JSON.stringify(fake.requests[before].body.messages);
    expect(sent).toContain('remember the word kiwi');
    expect(sent).toContain('first answer');
  });

  it.each(['jsonrpc', 'rest'])(
    'approval round trip on %s: ask → INPUT_REQUIRED → approve → COMPLETED with changes.diff',
    async (binding) => {
      const file = `ask-${binding}.txt`;
      fake.enqueue(
        {
          text: 'Writing.',
          toolCalls: [{ name: 'write_file', arguments: { path: file, content: 'approved\n' } }],
        },
        { text: 'Wrote it.' },
      );
      const send = (message: Record<string, unknown>) =>
        binding === 'rest'
          ? post(`${server.url}/message:send`, { message }, REST).then((r) => r.body.task)
          : post(server.url, aJsonRpcRequest('SendMessage', { message }), V1).then(
              (r) => r.body.result.task,
            );
      const asked = await send(aMessage(`write ${file}`));
      expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(asked.status.message.parts[0].text).toMatch(
        /write_file wants to write ask-\S+ \(9 bytes\)/,
      );
      expect(existsSync(join(checkout.dir, file))).toBe(false);
      const done = await send(
        aMessage('approve', { taskId: asked.id, contextId: asked.contextId }),
      );
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      expect(readFileSync(join(checkout.dir, file), 'utf8')).toBe('approved\n');
      const diff = done.artifacts.find((a: { name: string }) => a.name === 'changes.diff');
      expect(diff.parts[0].text).toContain(`+approved`);
    },
  );

  it('acceptedOutputModes text/plain leaves out the text/x-diff changes.diff artifact (issue #11.11)', async () => {
    const write = (path: string) => ({
      text: 'Writing.',
      toolCalls: [{ name: 'write_file', arguments: { path, content: 'x\n' } }],
    });
    fake.enqueue(write('modes-all.txt'), { text: 'Done.' }, write('modes-text.txt'), {
      text: 'Done.',
    });
    const send = (text: string, configuration?: unknown) =>
      post(
        server.url,
        aJsonRpcRequest('SendMessage', {
          message: aMessage(text),
          ...(configuration ? { configuration } : {}),
        }),
        V1,
      ).then((r) => r.body.result.task);
    const all = await send('write modes-all.txt');
    expect(all.artifacts.map((a: { name: string }) => a.name)).toEqual(['answer', 'changes.diff']);
    const textOnly = await send('write modes-text.txt', { acceptedOutputModes: ['text/plain'] });
    expect(textOnly.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textOnly.artifacts.map((a: { name: string }) => a.name)).toEqual(['answer']);
  });

  it('an image part is refused before any model call (ContentTypeNotSupported, issue #11.11)', async () => {
    const before = fake.requests.length;
    const message = {
      ...aMessage('x'),
      parts: [
        { text: 'fix the bug shown' },
        { url: 'https://example.com/bug.png', mediaType: 'image/png' },
      ],
    };
    const r = await post(server.url, aJsonRpcRequest('SendMessage', { message }), V1);
    expect(r.body.error.code).toBe(-32005);
    expect(r.body.error.message).toMatch(
      /superqode-harness.*accepts text\/plain, text\/markdown, application\/json/,
    );
    expect(fake.requests.length).toBe(before);
  });

  it('a deny (data part {"decision":"deny"}) resumes the run without executing the call', async () => {
    fake.enqueue(
      {
        text: 'Writing.',
        toolCalls: [{ name: 'write_file', arguments: { path: 'ask-denied.txt', content: 'x' } }],
      },
      { text: 'Not written.' },
    );
    const asked = (
      await post(`${server.url}/message:send`, { message: aMessage('write ask-denied.txt') }, REST)
    ).body.task;
    const message = {
      ...aMessage('x', { taskId: asked.id, contextId: asked.contextId }),
      parts: [{ data: { decision: 'deny' } }],
    };
    const done = (await post(`${server.url}/message:send`, { message }, REST)).body.task;
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(existsSync(join(checkout.dir, 'ask-denied.txt'))).toBe(false);
  });

  it('cancel mid-command kills the command and ends the task CANCELED', async () => {
    const marker = `sq-cancel-${Date.now()}`;
    fake.enqueue({
      toolCalls: [
        { name: 'bash', arguments: { command: `sleep 30 && echo ${marker}`, timeout_seconds: 60 } },
      ],
    });
    const cfg = { returnImmediately: true };
    const sent = await post(
      server.url,
      aJsonRpcRequest('SendMessage', {
        message: aMessage('run the long thing'),
        configuration: cfg,
      }),
      V1,
    );
    const id = sent.body.result.task.id;
    const { execSync } = await import('node:child_process');
    // Live (non-zombie) processes running the command; `[e]cho` keeps this check's own shell out.
    const running = () =>
      execSync(
        `for p in $(pgrep -f '[e]cho ${marker}'); do ps -o stat= -p $p | grep -qv Z && echo $p; done; true`,
        {
          encoding: 'utf8',
          shell: '/bin/bash',
        },
      ).trim();
    for (let i = 0; i < 100 && !running(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(running()).not.toBe('');
    const canceled = await post(server.url, aJsonRpcRequest('CancelTask', { id }), V1);
    expect(canceled.body.result.status.state).toBe('TASK_STATE_CANCELED');
    for (let i = 0; i < 60 && running(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(running()).toBe('');
  });

  it("a request over the spec's max_input_bytes ends FAILED naming the limit, without a model call", async () => {
    const before = fake.requests.length;
    const r = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('x'.repeat(70_000)) }),
      V1,
    );
    expect(r.body.result.task.status.state).toBe('TASK_STATE_FAILED');
    expect(r.body.result.task.status.message.parts[0].text).toMatch(
      /limits\.max_input_bytes is 65536/,
    );
    expect(fake.requests.length).toBe(before);
  });

  it('another key cannot use a context it did not create', async () => {
    fake.enqueue({ text: 'mine' });
    const alice = bearer(aKey(secret, { label: 'alice' }).key);
    const bob = bearer(aKey(secret, { label: 'bob' }).key);
    const contextId = randomUUID();
    const first = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('hello', { contextId }) }),
      { ...V1, ...alice },
    );
    expect(first.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const other = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('hello too', { contextId }) }),
      { ...V1, ...bob },
    );
    expect(other.body.error.code).toBe(-32602);
    expect(other.body.error.message).toMatch(/another caller/);
  });
});
