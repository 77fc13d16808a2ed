import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { FileTokenStore } from '../../src/modules/client/oauth/token-store';
import { tokenKey } from '../../src/modules/client/oauth/oauth-provider';
import { requireBuiltCli, tempHome } from '../fakes/client-cli';
import {
  aV03Card,
  aV03Task,
  messageTextOf,
  startFakeAgent,
  type FakeAgent,
  type RpcCall,
} from '../fakes/client-fake-agent';
import { harnessServerSuite } from '../fakes/harness-server';
import { hasTmux, keepCapture, TuiScreen } from '../utils/tmux';

const SPEC = `
name: tui-e2e
execution_policy:
  allow_read: true
  allow_write: true
  permission_rules:
    - { tool: write_file, action: ask }
`;
const API_KEY = 'k-tui-123';

/** A 0.3-only agent: message/stream answers in three appended chunks; X-Api-Key required. */
function streamingRpc(call: RpcCall, res: ServerResponse): unknown {
  const text = messageTextOf(call.params);
  if (call.method === 'message/send') return aV03Task(text);
  if (call.method !== 'message/stream') return undefined;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const frame = (result: unknown): boolean =>
    res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: call.id, result })}\n\n`);
  const ids = { taskId: 'task-03', contextId: 'ctx-03' };
  frame({ ...aV03Task(text, 'ctx-03', 'working'), artifacts: [] });
  for (const [i, chunk] of ['pong: ', 'one growing ', `text for ${text}`].entries())
    frame({
      kind: 'artifact-update',
      ...ids,
      append: i > 0,
      lastChunk: i === 2,
      artifact: { artifactId: 'r', parts: [{ kind: 'text', text: chunk }] },
    });
  frame({ kind: 'status-update', ...ids, final: true, status: { state: 'completed' } });
  res.end();
  return true;
}

/** SGR colour parameters (30-38, 40-48, 90-97, 100-107) in a pane captured with escapes. */
function colourCodes(pane: string): string[] {
  // eslint-disable-next-line no-control-regex -- SGR sequences start with ESC
  return [...pane.matchAll(/\x1b\[([0-9;]*)m/g)]
    .flatMap((m) => m[1].split(';'))
    .filter((p) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p));
}

const d = hasTmux() ? describe : describe.skip;

d('superqode tui in tmux (issue #18)', () => {
  // A loaded machine can take tens of seconds per harness turn; waitFor polls with its own deadline.
  jest.setTimeout(120_000);
  const suite = harnessServerSuite(SPEC, { 'README.md': '# demo\n' });
  let agent03: FakeAgent;
  let oauthAgent: FakeAgent;
  const screens: TuiScreen[] = [];
  const homes: string[] = [];

  beforeAll(async () => {
    requireBuiltCli();
    agent03 = await startFakeAgent({
      card: (base) =>
        aV03Card(base, {
          securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
          security: [{ key: [] }],
        }),
      auth: (r) => r.headers['x-api-key'] === API_KEY,
      rpc: streamingRpc,
    });
    oauthAgent = await startFakeAgent({
      card: (base) =>
        aV03Card(base, {
          securitySchemes: {
            corp: {
              type: 'oauth2',
              flows: { clientCredentials: { tokenUrl: `${base}/token`, scopes: {} } },
            },
          },
        }),
    });
  });

  afterAll(async () => {
    for (const s of screens) s.kill();
    for (const h of homes) rmSync(h, { recursive: true, force: true });
    await agent03?.close();
    await oauthAgent?.close();
  });

  function open(
    args: string[] = [],
    env: Record<string, string> = {},
  ): { screen: TuiScreen; home: string } {
    const home = tempHome();
    homes.push(home);
    const screen = TuiScreen.start({ home, args, env });
    screens.push(screen);
    return { screen, home };
  }

  async function connectOurs(screen: TuiScreen): Promise<string> {
    await screen.waitFor('Command [');
    const command = `:connect a2a ${suite.server.url}`;
    screen.type(command);
    // Enter only once the TUI has shown the text: read with it in one chunk (a slow start under
    // load), the Enter counts as typed text, not as the key, and the command is never run.
    await screen.waitFor(command);
    screen.press('Enter');
    return screen.waitFor(/Connected to .*type a message/);
  }

  it('connects, shows the agent, interface, skills and Try lines, and streams one growing reply', async () => {
    const { screen } = open();
    const pane = await connectOurs(screen);
    expect(pane).toMatch(/Agent: .* streams replies/);
    expect(pane).toMatch(/Interface: JSONRPC 1\.0 at http:\/\/127\.0\.0\.1:\d+/);
    expect(pane).toContain('Skills: ');
    expect(pane).toContain('Try "');
    suite.fake.enqueue({
      text: 'Hello from the harness, streamed in many small chunks.',
      chunkDelayMs: 20,
    });
    screen.type('say hello');
    screen.press('Enter');
    const done = await screen.waitFor(/Reply completed/);
    expect(done).toContain('agent: Hello from the harness, streamed in many small chunks.');
    expect(done).toMatch(/context [0-9a-f-]{8,}/);
    expect(colourCodes(screen.capture(true))).toEqual([]);
    keepCapture('connect-send', done);
    screen.press('Escape');
    await screen.waitFor('>[Send]');
    screen.press('y');
    await screen.waitFor('Copied the last reply');
    expect(screen.buffer()).toBe('Hello from the harness, streamed in many small chunks.');
  });

  it('approval round-trip: the input-required question, then "approve" answers the same task', async () => {
    const { screen } = open();
    await connectOurs(screen);
    suite.fake.enqueue({
      toolCalls: [
        { name: 'write_file', arguments: { path: 'tui.txt', content: 'from the tui\n' } },
      ],
    });
    screen.type('create tui.txt');
    screen.press('Enter');
    const asked = await screen.waitFor('input-required: your next message answers it');
    expect(asked).toContain('write_file wants to write tui.txt');
    expect(asked).toMatch(/answering task \S+/);
    keepCapture('approval-question', asked);
    suite.fake.enqueue({ text: 'Wrote tui.txt.' });
    screen.type('approve');
    screen.press('Enter');
    const done = await screen.waitFor(/Reply completed/);
    keepCapture('approval-done', done);
    expect(readFileSync(join(suite.checkout.dir, 'tui.txt'), 'utf8')).toBe('from the tui\n');
  });

  it('Use saves the connection and stays; :a2a call NAME continues on it', async () => {
    const { screen, home } = open();
    await connectOurs(screen);
    screen.type(':use ours');
    screen.press('Enter');
    await screen.waitFor('Saved as "ours"');
    const saved = JSON.parse(readFileSync(join(home, '.superqode/a2a.json'), 'utf8'));
    expect(saved.connections.ours.url).toBe(suite.server.url);
    screen.type(':a2a list');
    screen.press('Enter');
    await screen.waitFor(`ours  ${suite.server.url}`);
    suite.fake.enqueue({ text: 'Answer on the saved connection.' });
    screen.type(':a2a call ours what now');
    screen.press('Enter');
    const pane = await screen.waitFor(
      /agent: Answer on the saved connection\.[\s\S]*Reply completed/,
    );
    keepCapture('use-call', pane);
    const after = JSON.parse(readFileSync(join(home, '.superqode/a2a.json'), 'utf8'));
    expect(after.connections.ours.contextId).toMatch(/[0-9a-f-]{8,}/);
  });

  it('a 0.3-only agent: the Headers field opens by itself, its header is sent, the stream is one text', async () => {
    const { screen } = open([agent03.url]);
    const pane = await screen.waitFor(/Connected to Fake 0\.3/);
    expect(pane).toMatch(/Interface: JSONRPC 0\.3/);
    expect(pane).toContain('Headers (Name: value; …) [X-Api-Key: ');
    await screen.tabTo('>Headers (Name');
    screen.type(API_KEY);
    screen.press('Enter');
    // Connect moves the focus from the Headers field to the message box when it is done.
    await screen.waitFor(/>Message \[_[\s\S]*Connected to Fake 0\.3/);
    screen.type('ping');
    screen.press('Enter');
    const done = await screen.waitFor(/Reply completed/);
    expect(done).toContain('agent: pong: one growing text for ping');
    expect(done).not.toContain(API_KEY);
    keepCapture('legacy-headers-stream', done);
    const calls = agent03.requests.filter((r) => r.method === 'POST');
    expect(calls.at(-1)?.headers['x-api-key']).toBe(API_KEY);
    expect(JSON.parse(calls.at(-1)?.body ?? '{}').method).toBe('message/stream');
  });

  it('a silent host: after the cold-start threshold the status says so; Esc cancels the task', async () => {
    // The product's knob (default 8 s) set short: the wait is the same code path, not 8 s of it.
    const { screen } = open([], { SUPERQODE_A2A_TUI_COLD_START_MS: '1000' });
    await connectOurs(screen);
    suite.fake.enqueue({ hang: true });
    screen.type('take your time');
    screen.press('Enter');
    const cold = await screen.waitFor('the host may be cold-starting', 25_000);
    keepCapture('cold-start', cold);
    screen.press('Escape');
    const stopped = await screen.waitFor(/Stopped: task \S+ is canceled/);
    keepCapture('esc-cancel', stopped);
    const id = /Stopped: task (\S+) is canceled/.exec(stopped)?.[1];
    const task = await fetch(`${suite.server.url}/tasks/${id}`, {
      headers: { 'A2A-Version': '1.0' },
    }).then((r) => r.json() as Promise<{ status: { state: string } }>);
    expect(task.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('Logout deletes the stored OAuth token of the agent', async () => {
    // The file store, as the test writes it: with `auto` the TUI takes the OS keyring when it
    // works, and a kernel keyring becomes usable to the processes of a jest worker once any
    // suite in that worker has probed it (client-saved-secrets does, in process).
    const { screen, home } = open([], { SUPERQODE_A2A_OAUTH_STORE: 'file' });
    const store = new FileTokenStore(join(home, '.superqode/a2a-oauth'));
    const key = tokenKey(`${oauthAgent.url}/.well-known/agent-card.json`, 'corp');
    store.set(key, {
      accessToken: 'stored-at',
      clientId: 'c',
      issuer: oauthAgent.url,
      flow: 'client credentials',
    });
    await screen.waitFor('Command [');
    screen.type(':connect');
    screen.press('Enter');
    await screen.waitFor('[A2A] talk to any A2A agent');
    screen.press('Enter');
    await screen.waitFor('>Origin');
    screen.type(oauthAgent.url);
    screen.press('Tab', 'Tab', 'Tab', 'Enter');
    await screen.waitFor('( OAuth)');
    screen.press('BTab', 'BTab', 'Enter');
    await screen.waitFor(/Connected to Fake 0\.3/);
    screen.type(':logout');
    screen.press('Enter');
    const pane = await screen.waitFor(/Logout: corp: /);
    keepCapture('logout', pane);
    expect(store.get(key)).toBeUndefined();
  });

  it('a catalogue-only card is announced as a catalogue; Inspect shows the redacted trace', async () => {
    const catalogue = await startFakeAgent({
      card: (base) =>
        aV03Card(base, {
          name: 'Catalogue',
          skills: [
            {
              id: 'shortlist',
              name: 'Shortlist',
              description: 'recommends',
              tags: ['catalogue'],
              examples: ['Which harness fits a Rust repo?'],
            },
          ],
        }),
    });
    try {
      const { screen } = open();
      await screen.waitFor('Command [');
      screen.type(`:a2a connect ${catalogue.url}`);
      screen.press('Enter');
      const pane = await screen.waitFor(
        'Connected: Catalogue is a catalogue (shortlists), not a model',
      );
      expect(pane).toContain('Agent: Catalogue 0.3.0 · catalogue (skill shortlists, not a model)');
      expect(pane).toContain('Try "Which harness fits a Rust repo?"');
      await screen.tabTo('>( Inspect)');
      screen.press('Enter');
      const inspected = await screen.waitFor('discovery trace (redacted)');
      expect(inspected).toMatch(/\[interface\] · chosen: JSONRPC 0\.3/);
      keepCapture('catalogue-inspect', inspected);
    } finally {
      await catalogue.close();
    }
  });
});
