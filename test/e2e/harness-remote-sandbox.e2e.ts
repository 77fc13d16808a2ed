import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from '../fixtures/builders';
import { OPERATOR_TOKEN } from '../fixtures/credentials';
import { describeWithBwrap } from '../utils/bwrap';
import { startTestServer } from '../utils/test-app';

const dir = mkdtempSync(join(tmpdir(), 'sq-remote-sandbox-'));
const specWith = (sandbox: string) => {
  const file = join(dir, `${sandbox}.yaml`);
  writeFileSync(
    file,
    `name: remote-${sandbox}\ninherits: coding\nexecution_policy: {sandbox: ${sandbox}}\n`,
  );
  return file;
};
const REMOTE = {
  SUPERQODE_A2A_HOST: '0.0.0.0',
  SUPERQODE_A2A_ALLOW_REMOTE: true,
  SUPERQODE_A2A_HARNESS_ENABLED: true,
  SUPERQODE_A2A_EXPOSE_HARNESS: true,
  SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN,
  // A model is configured (the harness is not served without one); nothing calls it here.
  SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
  SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
  SUPERQODE_A2A_HARNESS_BASE_URL: 'http://127.0.0.1:9/v1',
} as const;
const harnessSkill = async (url: string) =>
  (
    (await get(`${url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' })).body.skills as {
      id: string;
      description: string;
    }[]
  ).find((s) => s.id === 'superqode-harness');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('A remote bind serves the harness only in the bwrap sandbox (issue #12)', () => {
  it('refuses to start with a local-sandbox spec, naming --allow-unsandboxed-harness', async () => {
    await expect(
      startTestServer({ ...REMOTE, SUPERQODE_A2A_HARNESS_SPEC: specWith('local') }),
    ).rejects.toThrow(
      /Refusing to serve the harness on a remote bind \(or --allow-remote\) with the "local" sandbox.*--allow-unsandboxed-harness/,
    );
  });

  it('applies to a loopback bind with --allow-remote too (behind a proxy)', async () => {
    const behindProxy = {
      SUPERQODE_A2A_ALLOW_REMOTE: true,
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_SPEC: specWith('local'),
    };
    await expect(startTestServer(behindProxy)).rejects.toThrow(/--allow-unsandboxed-harness/);
  });

  it('serves it with --allow-unsandboxed-harness, warns at start, and says so in /health and the card', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const server = await startTestServer({
        ...REMOTE,
        SUPERQODE_A2A_HARNESS_SPEC: specWith('local'),
        SUPERQODE_A2A_ALLOW_UNSANDBOXED_HARNESS: true,
      });
      try {
        const warnings = warn.mock.calls.map((args) => String(args[0]));
        expect(
          warnings.filter((w) => /--allow-unsandboxed-harness: .*NO isolation/.test(w)),
        ).toHaveLength(1);
        expect((await get(`${server.url}/health`)).body.harnessSandbox).toBe('local');
        expect((await harnessSkill(server.url))?.description).toMatch(
          /Sandbox: local \(NO isolation/,
        );
      } finally {
        await server.close();
      }
    } finally {
      warn.mockRestore();
    }
  });

  it('/health omits the sandbox when the harness is not served', async () => {
    const server = await startTestServer({ SUPERQODE_A2A_HARNESS_ENABLED: false });
    try {
      expect((await get(`${server.url}/health`)).body).not.toHaveProperty('harnessSandbox');
    } finally {
      await server.close();
    }
  });
});

describeWithBwrap('A remote bind with a bwrap sandbox (issue #12)', () => {
  it.each(['bwrap', 'auto'])(
    'serves the harness with sandbox %s, no flag needed',
    async (sandbox) => {
      const server = await startTestServer({
        ...REMOTE,
        SUPERQODE_A2A_HARNESS_SPEC: specWith(sandbox),
      });
      try {
        expect((await get(`${server.url}/health`)).body.harnessSandbox).toBe('bwrap');
        expect((await harnessSkill(server.url))?.description).toMatch(/Sandbox: bwrap/);
      } finally {
        await server.close();
      }
    },
  );
});
