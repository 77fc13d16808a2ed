import { Injectable } from '@nestjs/common';
import { secretValuesFromEnv } from '../core/secret-scrubber';
import { processEnv } from '../../../config/process-env';
import type { HarnessProviderId } from './model-selection';

/**
 * Environment variable holding each provider's API key (the providers' usual names).
 * openai-compatible has its own optional variable: the user's OpenAI key is never sent to an
 * arbitrary base URL.
 */
export const PROVIDER_KEY_VARIABLES: Readonly<Record<HarnessProviderId, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
  'openai-compatible': 'OPENAI_COMPATIBLE_API_KEY',
};

/** Providers that refuse to run without a key (openai-compatible servers often need none). */
export const KEY_REQUIRED: ReadonlySet<HarnessProviderId> = new Set([
  'openai',
  'anthropic',
  'google',
]);

/** Raw variables the config is built from (`process.env` in production, a literal in tests). */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/**
 * Model provider API keys, read once from the environment: the harness's only read of
 * provider variables. Keys sit in an ECMAScript private field, so logging or serialising this
 * object never shows them. Replace it in tests with `overrideProvider(HarnessProviderConfig)`
 * or `HarnessModule.forRoot({ providerEnv })`.
 */
@Injectable()
export class HarnessProviderConfig {
  readonly #keys: ReadonlyMap<HarnessProviderId, string>;
  readonly #secrets: readonly string[];

  constructor(env: ProviderEnv) {
    const keys = new Map<HarnessProviderId, string>();
    for (const [provider, variable] of Object.entries(PROVIDER_KEY_VARIABLES)) {
      const value = env[variable]?.trim();
      if (value) keys.set(provider as HarnessProviderId, value);
    }
    this.#keys = keys;
    this.#secrets = [...keys.values(), ...secretValuesFromEnv(env)];
  }

  /**
   * A config from the process environment ({@link processEnv}): the harness's only read of it
   * (provider keys are not part of the server's env schema).
   */
  static fromProcessEnv(): HarnessProviderConfig {
    return new HarnessProviderConfig(processEnv());
  }

  /** The provider's API key, or undefined when its variable is unset or blank. Never log it. */
  apiKey(provider: HarnessProviderId): string | undefined {
    return this.#keys.get(provider);
  }

  /**
   * Values to scrub from tool output and model text: the provider keys and every
   * secret-looking variable of the same environment (`secretValuesFromEnv`). Never log them.
   */
  secretValues(): readonly string[] {
    return this.#secrets;
  }

  /** Name of the variable that holds `provider`'s key (for messages). */
  keyVariable(provider: HarnessProviderId): string {
    return PROVIDER_KEY_VARIABLES[provider];
  }
}
