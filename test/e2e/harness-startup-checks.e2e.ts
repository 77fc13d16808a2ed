import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawEnv } from '../../src/config/env.schema';
import { startTestServer } from '../utils/test-app';

const LOCAL_SPEC = 'name: startup-local\ninherits: coding\nexecution_policy:\n  sandbox: local\n';

describe('Start-up checks of the served harness (issue #16)', () => {
  let dir: string;
  let spec: string;
  const savedKey = process.env.OPENAI_API_KEY;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sq-startup-'));
    spec = join(dir, 'spec.yaml');
    writeFileSync(spec, LOCAL_SPEC);
    delete process.env.OPENAI_API_KEY;
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    if (savedKey !== undefined) process.env.OPENAI_API_KEY = savedKey;
  });

  const env = (extra: RawEnv): RawEnv => ({
    SUPERQODE_A2A_HARNESS_ENABLED: true,
    SUPERQODE_A2A_HARNESS_SPEC: spec,
    SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
    SUPERQODE_A2A_HARNESS_MODEL: 'local-model',
    SUPERQODE_A2A_HARNESS_BASE_URL: 'http://127.0.0.1:9/v1',
    SUPERQODE_A2A_WORKING_DIR: dir,
    ...extra,
  });

  it('a working directory that does not exist stops the start, naming the setting', async () => {
    await expect(
      startTestServer(env({ SUPERQODE_A2A_WORKING_DIR: join(dir, 'does', 'not', 'exist') })),
    ).rejects.toThrow(
      /working directory .*does\/not\/exist does not exist \(--working-dir, SUPERQODE_A2A_WORKING_DIR\)/,
    );
  });

  it('a working directory that is a file stops the start', async () => {
    await expect(startTestServer(env({ SUPERQODE_A2A_WORKING_DIR: spec }))).rejects.toThrow(
      /is not a directory/,
    );
  });

  it('--provider openai without OPENAI_API_KEY stops the start, saying what to export', async () => {
    const settings = env({
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai',
      SUPERQODE_A2A_HARNESS_MODEL: 'gpt-4o-mini',
      SUPERQODE_A2A_HARNESS_BASE_URL: undefined,
    });
    await expect(startTestServer(settings)).rejects.toThrow(
      /Cannot serve the harness: OPENAI_API_KEY is not set/,
    );
  });

  it('a spec that does not load stops the start', async () => {
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'name: broken\nexecution_policy:\n  sandbox: nowhere\n');
    await expect(startTestServer(env({ SUPERQODE_A2A_HARNESS_SPEC: broken }))).rejects.toThrow(
      /sandbox/,
    );
  });

  it("good settings start; the spec's isolation warnings are logged once", async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const server = await startTestServer(env({}));
      await server.close();
      const noIsolation = warn.mock.calls
        .map((a) => String(a[0]))
        .filter((w) => /NO isolation/.test(w));
      expect(noIsolation).toHaveLength(1);
      expect(noIsolation[0]).toContain(spec);
    } finally {
      warn.mockRestore();
    }
  });
});
