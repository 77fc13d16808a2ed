import { HarnessProviderError } from '../protocol/harness-protocol.errors';
import { parsePrimaryModel, selectModel } from './model-selection';

describe('selectModel', () => {
  it('splits model_policy.primary at the first colon only', () => {
    expect(parsePrimaryModel('openai-compatible:llama3.1:8b')).toEqual({
      provider: 'openai-compatible',
      model: 'llama3.1:8b',
    });
    expect(parsePrimaryModel('gpt-4o')).toEqual({ model: 'gpt-4o' });
  });

  it('uses the spec model when no flag is given, flags over the spec otherwise', () => {
    expect(selectModel({}, 'anthropic:claude-sonnet')).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet',
      baseUrl: null,
    });
    expect(selectModel({ model: 'claude-haiku' }, 'anthropic:claude-sonnet').model).toBe(
      'claude-haiku',
    );
    expect(() => selectModel({ provider: 'openai' }, 'anthropic:claude-sonnet')).toThrow(
      'no model for provider openai: pass --model',
    );
  });

  it('normalises the base URL and requires one for openai-compatible', () => {
    const s = selectModel(
      { provider: 'openai-compatible', model: 'm', baseUrl: 'http://h:1/v1//' },
      undefined,
    );
    expect(s.baseUrl).toBe('http://h:1/v1');
    expect(() => selectModel({ provider: 'openai-compatible', model: 'm' }, undefined)).toThrow(
      /needs --base-url \(e\.g\. http:\/\/127\.0\.0\.1:11434\/v1/,
    );
    expect(() =>
      selectModel({ provider: 'openai', model: 'm', baseUrl: 'ftp://x' }, undefined),
    ).toThrow('--base-url must be http(s), got ftp:');
  });

  it('names the flags when nothing says which provider or model to use', () => {
    expect(() => selectModel({}, undefined)).toThrow(HarnessProviderError);
    expect(() => selectModel({}, undefined)).toThrow(
      /pass --provider and --model, or set model_policy\.primary/,
    );
    expect(() => selectModel({ provider: 'azure', model: 'x' }, undefined)).toThrow(
      "unknown provider 'azure'; use one of openai, anthropic, google, openai-compatible",
    );
  });
});
