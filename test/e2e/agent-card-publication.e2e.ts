import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkPublishedCard, diffJson } from '../../scripts/check-published-agent-card';
import { ServeCommandsModule } from '../../src/modules/transport/commands/serve-commands.module';
import { get } from '../fixtures/builders';
import { runCommandInProcessWithoutSettings } from '../utils/in-process-cli';
import { TestServer, startTestServer } from '../utils/test-app';

const CLI = join(__dirname, '../../dist/cli.js');
const CHECKED_IN = join(__dirname, '../../examples/a2a/agent-card.json');

function exportCard(...flags: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'sq-card-')), 'card.json');
  const r = spawnSync(
    process.execPath,
    [CLI, 'serve', 'a2a', '--export-agent-card', file, ...flags],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    },
  );
  expect([r.status, r.stderr]).toEqual([0, '']);
  return readFileSync(file, 'utf8');
}

/** {@link exportCard} in process (issue #13): the same command code; the test above stays spawned. */
async function exportCardInProcess(...flags: string[]): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'sq-card-')), 'card.json');
  const r = await runCommandInProcessWithoutSettings(
    [ServeCommandsModule],
    ['serve', 'a2a', '--export-agent-card', file, ...flags],
    process.cwd(),
  );
  expect([r.status, r.stderr]).toEqual([0, '']);
  return readFileSync(file, 'utf8');
}

describe('Agent Card publication (issue #3)', () => {
  it('examples/a2a/agent-card.json is exactly what `serve a2a --export-agent-card` writes (regenerate: npm run card:export)', () => {
    expect(exportCard()).toBe(readFileSync(CHECKED_IN, 'utf8'));
  });

  it('refuses to export a card for port 0 without a public URL: no port to name (--public-url exports)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sq-card-')), 'card.json');
    const args = ['serve', 'a2a', '--export-agent-card', file, '--port', '0'];
    const refused = await runCommandInProcessWithoutSettings(
      [ServeCommandsModule],
      args,
      process.cwd(),
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/Port 0 has no URL to export[\s\S]*--public-url/);
    expect(existsSync(file)).toBe(false);
    const withUrl = await exportCardInProcess(
      '--port',
      '0',
      '--public-url',
      'https://agent.example.com',
    );
    expect(JSON.parse(withUrl).supportedInterfaces[0].url).toBe('https://agent.example.com');
  });

  describe('against a running server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        SUPERQODE_A2A_PUBLIC_URL: 'https://agent.example.com',
        SUPERQODE_A2A_TOKEN: 'operator-token-0123456789abcdef',
        SUPERQODE_A2A_HARNESS_ENABLED: true,
      });
    });
    afterAll(() => server.close());

    it('the export is byte-identical to the served card for the same settings, and never holds the token', async () => {
      const exported = await exportCardInProcess(
        '--public-url',
        'https://agent.example.com',
        '--token',
        'operator-token-0123456789abcdef',
      );
      const served = await get(`${server.url}/.well-known/agent-card.json`);
      expect(exported).toBe(served.text);
      expect(exported).not.toContain('operator-token-0123456789abcdef');
      expect(JSON.parse(exported).securitySchemes.bearer).toBeDefined();
    });

    it('check-published-agent-card reports identical cards and a good icon', async () => {
      const local = await startTestServer();
      try {
        const expected = JSON.parse((await get(`${local.url}/.well-known/agent-card.json`)).text);
        const result = await checkPublishedCard(local.url, expected);
        expect(result).toMatchObject({ reachable: true, differences: [], iconOk: true });
      } finally {
        await local.close();
      }
    });

    it('check-published-agent-card lists every differing field', async () => {
      const expected = JSON.parse(readFileSync(CHECKED_IN, 'utf8'));
      const result = await checkPublishedCard(server.url, expected);
      const paths = result.differences.map((d) => d.path);
      expect(paths).toEqual(
        expect.arrayContaining(['$.url', '$.supportedInterfaces[0].url', '$.iconUrl']),
      );
      expect(result.lines.some((l) => l.startsWith('differs $.url'))).toBe(true);
    });

    it('an unreachable host is reported, not failed', async () => {
      const result = await checkPublishedCard('http://127.0.0.1:9', {}, 2000);
      expect(result.reachable).toBe(false);
      expect(result.lines[0]).toMatch(/^unreachable/);
    });
  });

  it('diffJson finds nested, added and removed fields', () => {
    expect(diffJson({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 3] }, d: true })).toEqual([
      { path: '$.b.c[1]', published: 2, expected: 3 },
      { path: '$.d', published: undefined, expected: true },
    ]);
  });
});
