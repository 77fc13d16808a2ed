import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { OPERATOR_TOKEN } from '../fixtures/credentials';
import { startTestServer } from '../utils/test-app';

const REMOTE = {
  SUPERQODE_A2A_HOST: '0.0.0.0',
  SUPERQODE_A2A_ALLOW_REMOTE: true,
  SUPERQODE_A2A_HARNESS_ENABLED: true,
};
/** A model choice that resolves at start (no call is made until a task runs). */
const MODEL = {
  SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
  SUPERQODE_A2A_HARNESS_MODEL: 'local-model',
  SUPERQODE_A2A_HARNESS_BASE_URL: 'http://127.0.0.1:9/v1',
};
const skills = async (url: string) =>
  (
    (await get(`${url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' })).body.skills as {
      id: string;
    }[]
  ).map((s) => s.id);

describe('Remote binds and the harness skill (issue #3)', () => {
  const spec = join(mkdtempSync(join(tmpdir(), 'sq-remote-')), 'spec.yaml');
  beforeAll(() => writeFileSync(spec, 'name: remote\ninherits: read-only\n'));

  it('a remote bind serves harness-shortlist only; naming the harness is refused with the reason', async () => {
    const server = await startTestServer(REMOTE);
    try {
      expect(await skills(server.url)).toEqual(['harness-shortlist']);
      const params = {
        message: aMessage('fix the bug'),
        metadata: { superqodeSkill: 'superqode-harness' },
      };
      const r = await post(server.url, aJsonRpcRequest('SendMessage', params), V1);
      expect(r.body.error.code).toBe(-32602);
      expect(r.body.error.message).toMatch(
        /not served: a remote bind serves the harness only with --expose-harness/,
      );
    } finally {
      await server.close();
    }
  });

  it.each([
    ['without --spec', { SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN }, /without --spec/],
    ['without a token', { SUPERQODE_A2A_HARNESS_SPEC: spec }, /without --token/],
  ])('--expose-harness %s refuses to start', async (_n, extra, message) => {
    await expect(
      startTestServer({ ...REMOTE, SUPERQODE_A2A_EXPOSE_HARNESS: true, ...extra }),
    ).rejects.toThrow(message);
  });

  it('--expose-harness with a spec, a token and a model serves both skills', async () => {
    // The spec's sandbox is local: serving it remotely also needs --allow-unsandboxed-harness (#12).
    const server = await startTestServer({
      ...REMOTE,
      ...MODEL,
      SUPERQODE_A2A_EXPOSE_HARNESS: true,
      SUPERQODE_A2A_HARNESS_SPEC: spec,
      SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
      SUPERQODE_A2A_ALLOW_UNSANDBOXED_HARNESS: true,
    });
    try {
      expect(await skills(server.url)).toEqual(['harness-shortlist', 'superqode-harness']);
    } finally {
      await server.close();
    }
  });

  it('a loopback bind with a model serves both skills (without one: harness-not-served.e2e.ts)', async () => {
    const server = await startTestServer({ SUPERQODE_A2A_HARNESS_ENABLED: true, ...MODEL });
    try {
      expect(await skills(server.url)).toEqual(['harness-shortlist', 'superqode-harness']);
    } finally {
      await server.close();
    }
  });
});
