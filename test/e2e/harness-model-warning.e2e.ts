import { Logger } from '@nestjs/common';
import { startTestServer } from '../utils/test-app';

const WARNING = /superqode-harness skill is not served: it cannot run a model \(no model provider/;

/** Starts and stops a server on these settings; returns the start-up warnings Nest logged. */
async function startupWarnings(env: Record<string, string | boolean>): Promise<string[]> {
  const warn = jest.spyOn(Logger.prototype, 'warn');
  try {
    const server = await startTestServer(env);
    await server.close();
    return warn.mock.calls.map((args) => String(args[0]));
  } finally {
    warn.mockRestore();
  }
}

describe('Start-up warning for a harness skill left unserved for want of a model (new-user defaults)', () => {
  it('warns when the harness is enabled with no provider, no model and no model_policy, saying requests go to the shortlist', async () => {
    const warnings = await startupWarnings({ SUPERQODE_A2A_HARNESS_ENABLED: true });
    expect(warnings.filter((w) => WARNING.test(w))).toHaveLength(1);
    expect(warnings.find((w) => WARNING.test(w))).toMatch(/every request goes to the shortlist/);
    expect(warnings.find((w) => WARNING.test(w))).toMatch(/SUPERQODE_A2A_HARNESS_ENABLED=false/);
  });

  it('stays quiet when a provider and model are configured (no call is made at start)', async () => {
    const warnings = await startupWarnings({
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'openai-compatible',
      SUPERQODE_A2A_HARNESS_MODEL: 'local-model',
      SUPERQODE_A2A_HARNESS_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(warnings.filter((w) => /cannot run a model/.test(w))).toEqual([]);
  });

  it('stays quiet when the harness is not served', async () => {
    const warnings = await startupWarnings({ SUPERQODE_A2A_HARNESS_ENABLED: false });
    expect(warnings.filter((w) => /cannot run a model/.test(w))).toEqual([]);
  });

  it('names an incomplete choice: a provider without a model', async () => {
    const warnings = await startupWarnings({
      SUPERQODE_A2A_HARNESS_ENABLED: true,
      SUPERQODE_A2A_HARNESS_PROVIDER: 'anthropic',
    });
    expect(warnings.find((w) => /cannot run a model/.test(w))).toMatch(
      /no model for provider anthropic/,
    );
  });
});
