import { APICallError, RetryError } from 'ai';
import { HarnessModelResolver } from './harness-model.resolver';
import { HarnessProviderConfig } from './harness-provider.config';
import type { ResolvedModelSelection } from './model-selection';

const SECRET = 'sk-test-secret-value';
const openai: ResolvedModelSelection = { provider: 'openai', model: 'gpt-x', baseUrl: null };

function apiError(statusCode: number | undefined, message = 'boom'): APICallError {
  return new APICallError({
    message,
    url: 'http://h/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
  });
}

describe(HarnessModelResolver.name, () => {
  it('refuses a provider whose key variable is unset, saying what to export', () => {
    const resolver = new HarnessModelResolver(new HarnessProviderConfig({}));
    expect(() => resolver.resolve(openai)).toThrow(
      'OPENAI_API_KEY is not set; export it or use --provider openai-compatible --base-url http://127.0.0.1:11434/v1',
    );
    expect(() => resolver.resolve({ provider: 'google', model: 'g', baseUrl: null })).toThrow(
      /^GOOGLE_GENERATIVE_AI_API_KEY is not set/,
    );
  });

  it('builds models with a key, and openai-compatible without one', () => {
    const resolver = new HarnessModelResolver(
      new HarnessProviderConfig({ ANTHROPIC_API_KEY: SECRET }),
    );
    expect(
      resolver.resolve({ provider: 'anthropic', model: 'c', baseUrl: null }).selection.model,
    ).toBe('c');
    const compatible = {
      provider: 'openai-compatible' as const,
      model: 'm',
      baseUrl: 'http://h/v1',
    };
    expect(resolver.resolve(compatible).model).toBeDefined();
  });

  it('describes provider failures in one line without the key', () => {
    const config = new HarnessProviderConfig({ OPENAI_API_KEY: SECRET });
    const resolver = new HarnessModelResolver(config);
    const unreachable = new APICallError({
      message: 'Cannot connect to API: connect ECONNREFUSED',
      url: 'http://127.0.0.1:9/v1/chat/completions',
      requestBodyValues: {},
      cause: new Error('connect ECONNREFUSED 127.0.0.1:9'),
    });
    const lines = [
      resolver.describeError(unreachable, openai),
      resolver.describeError(apiError(401), openai),
      resolver.describeError(apiError(404, 'model not found'), openai),
      resolver.describeError(
        new RetryError({ message: 'r', reason: 'maxRetriesExceeded', errors: [apiError(500)] }),
        openai,
      ),
    ];
    expect(lines).toEqual([
      'cannot reach openai at http://127.0.0.1:9/v1/chat/completions: connect ECONNREFUSED 127.0.0.1:9; check --base-url and that the model server is running',
      'openai refused the request (HTTP 401): check OPENAI_API_KEY',
      'openai has no model gpt-x (HTTP 404): model not found',
      'openai request failed (HTTP 500): boom',
    ]);
    expect(JSON.stringify(config)).not.toContain(SECRET);
    for (const line of lines) expect(line).not.toContain(SECRET);
  });
});
