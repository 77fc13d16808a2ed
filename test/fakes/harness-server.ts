import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawEnv } from '../../src/config/env.schema';
import { TestServer, startTestServer } from '../utils/test-app';
import { FakeOpenAiServer } from './fake-openai-server';
import { tempCheckout } from './harness-fixtures';
import type { TempCheckout } from './harness-fixtures';

/** What {@link harnessServerSuite} gives each test: filled by the hooks it registers. */
export interface HarnessServerSuite {
  fake: FakeOpenAiServer;
  checkout: TempCheckout;
  server: TestServer;
  /** Log lines the server wrote (Fastify's and Nest's loggers go to stdout here). */
  logs: string[];
}

/** The environment of a server that serves the harness with the fake model. */
export function harnessServerEnv(
  fake: FakeOpenAiServer,
  workingDir: string,
  specFile: string,
  extra: RawEnv = {},
): RawEnv {
  return {
    SUPERQODE_A2A_HARNESS_ENABLED: true,
    SUPERQODE_A2A_HARNESS_SPEC: specFile,
    SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
    SUPERQODE_A2A_HARNESS_MODEL: 'fake-model',
    SUPERQODE_A2A_HARNESS_BASE_URL: fake.baseUrl,
    SUPERQODE_A2A_WORKING_DIR: workingDir,
    SUPERQODE_A2A_UNDERSTAND_REQUESTS: false,
    ...extra,
  };
}

/**
 * Registers hooks for one suite: a fake OpenAI-compatible model, a git checkout holding `files`,
 * and the real app on loopback serving both skills with `spec` (YAML text) and `extra` settings.
 */
export function harnessServerSuite(
  spec: string,
  files: Record<string, string>,
  extra: RawEnv = {},
): HarnessServerSuite {
  const suite = { logs: [] } as unknown as HarnessServerSuite;
  let specDir = '';
  beforeAll(async () => {
    suite.fake = await FakeOpenAiServer.start();
    suite.checkout = tempCheckout(files);
    specDir = mkdtempSync(join(tmpdir(), 'sq-spec-'));
    const specFile = join(specDir, 'spec.yaml');
    writeFileSync(specFile, spec);
    suite.server = await startTestServer(
      harnessServerEnv(suite.fake, suite.checkout.dir, specFile, extra),
    );
  });
  afterAll(async () => {
    await suite.server?.close();
    await suite.fake?.close();
    suite.checkout?.remove();
    if (specDir) rmSync(specDir, { recursive: true, force: true });
  });
  return suite;
}

/** Reads a JSON-RPC SSE stream into its frames' `result` objects (comment lines skipped). */
export async function sseResults(res: Response): Promise<Record<string, any>[]> {
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
