import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentCard } from '@a2a-js/sdk';
import { aJsonRpcRequest, aLegacyMessage, aMessage, get, post } from '../fixtures/builders';
import { OPERATOR_TOKEN, aKey, aKeySecret, bearer } from '../fixtures/credentials';
import { FakeOpenAiServer } from '../fakes/fake-openai-server';
import { tempCheckout } from '../fakes/harness-fixtures';
import type { TempCheckout } from '../fakes/harness-fixtures';
import type { RawEnv } from '../../src/config/env.schema';
import { ServeCommandsModule } from '../../src/modules/transport/commands/serve-commands.module';
import { runCommandInProcessWithoutSettings } from '../utils/in-process-cli';
import { TestServer, startTestServer } from '../utils/test-app';

/** The harness may run shell commands; no rule asks. */
const SPEC = 'name: access-e2e\ninherits: coding\nexecution_policy:\n  allow_shell: true\n';
const HARNESS = { superqodeSkill: 'superqode-harness' };

/** The six ways to send a message: JSON-RPC 1.0, JSON-RPC 0.3 and REST, each blocking and streaming. */
const BINDINGS = [
  'jsonrpc-1.0',
  'jsonrpc-1.0-stream',
  'jsonrpc-0.3',
  'jsonrpc-0.3-stream',
  'rest',
  'rest-stream',
] as const;
type Binding = (typeof BINDINGS)[number];

/**
 * Sends `text` on a binding (`explicit`: naming the harness in message metadata) and waits for the
 * whole answer (a stream ends when its task does).
 */
function send(
  url: string,
  binding: Binding,
  text: string,
  opts: { headers?: Record<string, string>; explicit?: boolean } = {},
) {
  const metadata = opts.explicit ? { metadata: HARNESS } : {};
  const auth = opts.headers ?? {};
  const v1 = { 'content-type': 'application/json', 'A2A-Version': '1.0', ...auth };
  const stream = binding.endsWith('-stream');
  if (binding.startsWith('jsonrpc-0.3')) {
    const method = stream ? 'message/stream' : 'message/send';
    return post(url, aJsonRpcRequest(method, { message: aLegacyMessage(text, metadata) }), {
      'content-type': 'application/json',
      ...auth,
    });
  }
  if (binding.startsWith('jsonrpc-1.0')) {
    const method = stream ? 'SendStreamingMessage' : 'SendMessage';
    return post(url, aJsonRpcRequest(method, { message: aMessage(text, metadata) }), v1);
  }
  return post(
    `${url}/${stream ? 'message:stream' : 'message:send'}`,
    { message: aMessage(text, metadata) },
    v1,
  );
}

/** The refusal in the binding's shape: JSON-RPC envelope (-32040 / -32043) or google.rpc.Status. */
function expectRefusal(
  binding: Binding,
  r: Awaited<ReturnType<typeof post>>,
  status: 401 | 403,
  message: RegExp,
): void {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/json/);
  expect(r.headers.get('www-authenticate')).toMatch(/^Bearer realm="superqode-a2a"/);
  expect(r.headers.get('www-authenticate')).toMatch(/^[\x20-\x7e]+$/);
  if (binding.startsWith('jsonrpc')) {
    expect(r.body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      error: { code: status === 401 ? -32040 : -32043 },
    });
    expect(r.body.error.message).toMatch(message);
  } else {
    expect(r.body.error).toMatchObject({
      code: status,
      status: status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED',
    });
    expect(r.body.error.message).toMatch(message);
  }
}

/** A fresh marker name, and the model's scripted turns that create it with `bash` then answer. */
function scriptMarker(fake: FakeOpenAiServer, checkout: TempCheckout, name: string): string {
  fake.enqueue(
    { toolCalls: [{ name: 'bash', arguments: { command: `id -un > ${name}` } }] },
    { text: 'done' },
  );
  return join(checkout.dir, name);
}

async function taskCount(url: string, headers: Record<string, string>): Promise<number> {
  const r = await get(`${url}/tasks?pageSize=100`, { 'A2A-Version': '1.0', ...headers });
  expect(r.status).toBe(200);
  return (r.body.tasks ?? []).length;
}

/** An exposed harness (remote bind, loopback listener) with a fake model, a spec and a checkout. */
function exposedHarness(extra: RawEnv) {
  const ctx = {} as {
    fake: FakeOpenAiServer;
    checkout: TempCheckout;
    server: TestServer;
    secret: string;
  };
  beforeAll(async () => {
    ctx.fake = await FakeOpenAiServer.start();
    ctx.checkout = tempCheckout({ 'README.md': '# demo\n' });
    ctx.secret = aKeySecret();
    const spec = join(mkdtempSync(join(tmpdir(), 'sq-access-')), 'spec.yaml');
    writeFileSync(spec, SPEC);
    ctx.server = await startTestServer({
      SUPERQODE_A2A_HOST: '0.0.0.0',
      SUPERQODE_A2A_ALLOW_REMOTE: true,
      SUPERQODE_A2A_EXPOSE_HARNESS: true,
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_SPEC: spec,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
      SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: ctx.fake.baseUrl,
      SUPERQODE_A2A_WORKING_DIR: ctx.checkout.dir,
      SUPERQODE_A2A_UNDERSTAND_REQUESTS: false,
      SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
      SUPERQODE_A2A_KEY_SECRET: ctx.secret,
      ...extra,
    });
  });
  afterAll(async () => {
    await ctx.server.close();
    await ctx.fake.close();
    ctx.checkout.remove();
  });
  return ctx;
}

describe('Who may run the harness: --harness-access keyed (issue #12)', () => {
  const ctx = exposedHarness({ SUPERQODE_A2A_HARNESS_ACCESS: 'keyed' });
  const scoped = () => bearer(aKey(ctx.secret, { label: 'scoped', scopes: ['harness'] }).key);
  let unscoped: Record<string, string>;
  beforeAll(() => {
    unscoped = bearer(aKey(ctx.secret, { label: 'plain' }).key);
  });

  it.each(BINDINGS)(
    '%s: anonymous gets 401, an unscoped key 403, nothing runs; a harness-scoped key runs it',
    async (binding) => {
      const { server, fake, checkout } = ctx;
      const marker = scriptMarker(fake, checkout, `marker-keyed-${binding}`);
      const before = fake.requests.length;

      const anonymous = await send(server.url, binding, 'record who runs this', { explicit: true });
      expectRefusal(
        binding,
        anonymous,
        401,
        /needs an API key issued with --scope harness, or the operator token/,
      );
      expect(anonymous.headers.get('www-authenticate')).toContain('scope="harness"');
      const plain = await send(server.url, binding, 'record who runs this', {
        explicit: true,
        headers: unscoped,
      });
      expectRefusal(binding, plain, 403, /lacks the 'harness' scope/);
      expect(plain.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      expect(fake.requests.length).toBe(before);
      expect(existsSync(marker)).toBe(false);
      expect(await taskCount(server.url, unscoped)).toBe(0);

      const allowed = await send(server.url, binding, 'record who runs this', {
        explicit: true,
        headers: scoped(),
      });
      expect(allowed.status).toBe(200);
      expect(fake.requests.length).toBe(before + 2);
      expect(existsSync(marker)).toBe(true);
    },
  );

  it.each(BINDINGS)(
    '%s: a below-tier caller’s phrase-routed request goes to the shortlist',
    async (binding) => {
      const { server, fake, checkout } = ctx;
      const before = fake.requests.length;
      for (const headers of [{}, unscoped]) {
        const r = await send(server.url, binding, 'fix the failing test and touch marker-phrase', {
          headers,
        });
        expect(r.status).toBe(200);
        if (binding === 'jsonrpc-1.0')
          expect(r.body.result.task.status.message.metadata.superqodeSkill).toBe(
            'harness-shortlist',
          );
        if (binding === 'rest')
          expect(r.body.task.status.message.metadata.superqodeSkill).toBe('harness-shortlist');
        if (binding === 'jsonrpc-0.3')
          expect(r.body.result.status.message.metadata.superqodeSkill).toBe('harness-shortlist');
      }
      expect(fake.requests.length).toBe(before);
      expect(existsSync(join(checkout.dir, 'marker-phrase'))).toBe(false);
    },
  );

  it('the operator runs it too', async () => {
    const marker = scriptMarker(ctx.fake, ctx.checkout, 'marker-keyed-operator');
    const r = await send(ctx.server.url, 'jsonrpc-1.0', 'record who runs this', {
      explicit: true,
      headers: bearer(OPERATOR_TOKEN),
    });
    expect(r.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(existsSync(marker)).toBe(true);
  });

  it('the card: the harness skill requires the bearer scheme (role harness); the shortlist stays open; both shapes', async () => {
    const strict = (
      await get(`${ctx.server.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' })
    ).body;
    expect(strict.securitySchemes.bearer.httpAuthSecurityScheme.scheme).toBe('Bearer');
    const [shortlist, harness] = strict.skills;
    expect(shortlist.securityRequirements).toBeUndefined();
    expect(harness.securityRequirements).toEqual([{ schemes: { bearer: { list: ['harness'] } } }]);
    expect(AgentCard.toJSON(AgentCard.fromJSON(strict))).toEqual(strict); // a valid 1.0 card, nothing lost
    const dual = (await get(`${ctx.server.url}/.well-known/agent-card.json`)).body;
    expect(dual.skills[1].securityRequirements).toEqual(harness.securityRequirements);
    expect(dual.skills[1].security).toEqual([{ bearer: ['harness'] }]);
    expect(dual.skills[0].security).toBeUndefined();
  });
});

describe('Who may run the harness: --expose-harness defaults to operator (issue #12)', () => {
  const ctx = exposedHarness({});

  it.each(['jsonrpc-1.0', 'jsonrpc-0.3', 'rest'] as const)(
    '%s: a harness-scoped key gets 403, the operator runs it',
    async (binding) => {
      const { server, fake, checkout } = ctx;
      const marker = scriptMarker(fake, checkout, `marker-operator-${binding}`);
      const before = fake.requests.length;
      const key = bearer(aKey(ctx.secret, { scopes: ['harness'] }).key);
      expectRefusal(
        binding,
        await send(server.url, binding, 'record who runs this', { explicit: true, headers: key }),
        403,
        /for the operator only/,
      );
      expectRefusal(
        binding,
        await send(server.url, binding, 'record who runs this', { explicit: true }),
        401,
        /needs the operator token/,
      );
      expect(fake.requests.length).toBe(before);
      expect(existsSync(marker)).toBe(false);
      const r = await send(server.url, binding, 'record who runs this', {
        explicit: true,
        headers: bearer(OPERATOR_TOKEN),
      });
      expect(r.status).toBe(200);
      expect(existsSync(marker)).toBe(true);
    },
  );

  it('the card: the harness skill requires the operator role', async () => {
    const card = (
      await get(`${ctx.server.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' })
    ).body;
    expect(card.skills[1].securityRequirements).toEqual([
      { schemes: { bearer: { list: ['operator'] } } },
    ]);
  });
});

describe('Harness access settings refused at start (issue #12)', () => {
  const spec = join(mkdtempSync(join(tmpdir(), 'sq-access-')), 'spec.yaml');
  beforeAll(() => writeFileSync(spec, SPEC));
  const remote = {
    SUPERQODE_A2A_HOST: '0.0.0.0',
    SUPERQODE_A2A_ALLOW_REMOTE: true,
    SUPERQODE_A2A_EXPOSE_HARNESS: true,
    SUPERQODE_A2A_HARNESS_ENABLED: true,
  };

  it.each([
    [
      'anonymous on a remote bind',
      {
        ...remote,
        SUPERQODE_A2A_HARNESS_SPEC: spec,
        SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
        SUPERQODE_A2A_HARNESS_ACCESS: 'anonymous',
      },
      /Refusing --harness-access anonymous on a remote bind/,
    ],
    [
      'keyed without a key secret',
      { ...remote, SUPERQODE_A2A_HARNESS_SPEC: spec, SUPERQODE_A2A_HARNESS_ACCESS: 'keyed' },
      /keyed without SUPERQODE_A2A_KEY_SECRET/,
    ],
    [
      'operator without a token on loopback',
      { SUPERQODE_A2A_HARNESS_ENABLED: true, SUPERQODE_A2A_HARNESS_ACCESS: 'operator' },
      /operator without --token/,
    ],
    [
      'an unknown tier',
      { SUPERQODE_A2A_HARNESS_ACCESS: 'everyone' },
      /SUPERQODE_A2A_HARNESS_ACCESS/,
    ],
  ] as [string, RawEnv, RegExp][])('%s', async (_name, env, message) => {
    await expect(startTestServer(env)).rejects.toThrow(message);
  });
});

describe('serve a2a --harness-access (built CLI, issue #12)', () => {
  const CLI = join(__dirname, '../../dist/cli.js');
  const serve = (...flags: string[]) => {
    const file = join(mkdtempSync(join(tmpdir(), 'sq-access-card-')), 'card.json');
    const r = spawnSync(
      process.execPath,
      [CLI, 'serve', 'a2a', '--export-agent-card', file, ...flags],
      {
        encoding: 'utf8',
        timeout: 20_000,
        env: { PATH: process.env.PATH ?? '' },
      },
    );
    return {
      status: r.status,
      out: `${r.stdout}${r.stderr}`,
      card: () => JSON.parse(readFileSync(file, 'utf8')),
    };
  };

  /** {@link serve} in process (issue #13): the same command code; the refusal below stays spawned. */
  const serveInProcess = async (...flags: string[]) => {
    const file = join(mkdtempSync(join(tmpdir(), 'sq-access-card-')), 'card.json');
    const r = await runCommandInProcessWithoutSettings(
      [ServeCommandsModule],
      ['serve', 'a2a', '--export-agent-card', file, ...flags],
      process.cwd(),
    );
    return { status: r.status, out: r.out, card: () => JSON.parse(readFileSync(file, 'utf8')) };
  };

  it('the flag sets the tier the card advertises', async () => {
    // A model is configured (the harness is not served without one); nothing calls it.
    const model = [
      '--provider',
      'openai-compatible',
      '--model',
      'm',
      '--base-url',
      'http://127.0.0.1:9/v1',
    ];
    const r = await serveInProcess(
      '--harness-access',
      'operator',
      '--token',
      OPERATOR_TOKEN,
      ...model,
    );
    expect(r.status).toBe(0);
    expect(r.card().skills[1].securityRequirements).toEqual([
      { schemes: { bearer: { list: ['operator'] } } },
    ]);
    expect(r.out).not.toContain(OPERATOR_TOKEN);
  });

  it('the reproduction with --harness-access anonymous is refused at start, exit 1', () => {
    const r = serve(
      '--host',
      '0.0.0.0',
      '--allow-remote',
      '--expose-harness',
      '--spec',
      'coding',
      '--token',
      OPERATOR_TOKEN,
      '--harness-access',
      'anonymous',
    );
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/Refusing --harness-access anonymous on a remote bind/);
    expect(r.out).not.toContain(OPERATOR_TOKEN);
  });
});
