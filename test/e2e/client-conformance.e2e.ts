import { superqodeInProcess, tempHome } from '../fakes/client-cli';
import { aV1Card, FakeAgent, json, startFakeAgent } from '../fakes/client-fake-agent';
import { TestServer, startTestServer } from '../utils/test-app';

/** `npm start`'s settings: default rate limits, the harness skill on (no model configured). */
const NPM_START_DEFAULTS = {
  SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 10,
  SUPERQODE_A2A_KEYED_PER_MINUTE: 60,
  SUPERQODE_A2A_GLOBAL_PER_DAY: 5000,
  SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE: 10,
  SUPERQODE_A2A_HARNESS_ENABLED: true,
};

describe('connect a2a --conformance (issue #17)', () => {
  let home: string;
  const run = (args: string[]) => superqodeInProcess(args, { home });
  beforeEach(() => {
    home = tempHome();
  });

  describe("against npm start's default server", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(NPM_START_DEFAULTS);
    });
    afterAll(() => server.close());

    it('every check passes with the default shortlist question, exit 0', async () => {
      const r = await run(['connect', 'a2a', server.url, '--conformance', '--json']);
      const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string }[] })
        .checks;
      expect(checks.filter((c) => c.status !== 'pass')).toEqual([]);
      expect(checks).toHaveLength(8);
      expect(r.code).toBe(0);
    });
  });

  describe('a rate-limited agent', () => {
    let agent: FakeAgent;
    beforeAll(async () => {
      agent = await startFakeAgent({
        card: (b) => aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]),
        routes: [
          (q, res) => {
            if (q.method !== 'POST') return false;
            json(res, 429, { error: 'slow down' }, { 'retry-after': '7' });
            return true;
          },
        ],
      });
    });
    afterAll(() => agent.close());

    it('reports 429 as skipped "rate limited, retry in N s", not failed (exit 0)', async () => {
      const r = await run(['connect', 'a2a', agent.url, '--conformance']);
      expect(r.stdout).toMatch(/interface reachable +SKIP +rate limited, retry in 7 s/);
      expect(r.stdout).toMatch(/send completes +SKIP +rate limited, retry in 7 s/);
      expect(r.stdout).not.toContain('FAIL ');
      expect(r.code).toBe(0);
    });

    it('a plain call that gets 429 says so with the wait (exit 1)', async () => {
      const r = await run(['connect', 'a2a', agent.url, '--no-stream']);
      expect(r.code).toBe(1);
      // The CLI runs in process: lines another suite's app in this jest worker logs while it runs
      // (Nest's logger, `[Nest] pid …`) are not the CLI's output.
      const cliErr = r.stderr
        .split('\n')
        .filter((l) => !/\[Nest\] \d+/.test(l))
        .join('\n');
      expect(cliErr).toBe(
        `error: ${agent.url} rate limited this client (HTTP 429), retry in 7 s\n`,
      );
    });
  });
});
