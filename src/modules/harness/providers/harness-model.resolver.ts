import { Injectable } from '@nestjs/common';
import type { LanguageModel } from 'ai';
import { HarnessProviderError } from '../protocol/harness-protocol.errors';
import { aiSdk } from './ai-sdk.loader';
import { HarnessProviderConfig, KEY_REQUIRED } from './harness-provider.config';
import { EXAMPLE_COMPATIBLE_BASE_URL } from './model-selection';
import type { ResolvedModelSelection } from './model-selection';

/** A model ready for `streamText`, with the choice it came from. */
export interface ResolvedModel {
  selection: ResolvedModelSelection;
  model: LanguageModel;
}

/** The message of an error (from any realm: no `instanceof`), or its string form. */
function messageOf(err: unknown): string {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(err);
}

/**
 * Why `fetch` could not connect (`ECONNREFUSED`, `ENOTFOUND`…), for a raw `fetch failed`
 * TypeError that reached us unwrapped (the SDK wraps it only when it recognises the error's
 * realm, which a test VM context defeats); null for anything else.
 */
function connectionFailure(err: unknown): string | null {
  if (typeof err !== 'object' || err === null || messageOf(err) !== 'fetch failed') return null;
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  return String(cause?.code ?? cause?.message ?? 'fetch failed');
}

/** Message for a provider endpoint that does not answer. */
function unreachable(provider: string, url: string, reason: string): string {
  return `cannot reach ${provider} at ${url}: ${reason}; check --base-url and that the model server is running`;
}

/**
 * Model providers through the Vercel AI SDK: `openai`, `anthropic`, `google` and
 * `openai-compatible` (any chat-completions server: Ollama, vLLM, LM Studio, llama.cpp).
 * Keys come from {@link HarnessProviderConfig}; errors name the variable or flag to fix.
 * @see https://ai-sdk.dev/providers
 */
@Injectable()
export class HarnessModelResolver {
  constructor(private readonly config: HarnessProviderConfig) {}

  /**
   * The AI SDK model for a validated selection (loads that provider's package on first use).
   * Makes no network call.
   * @throws {HarnessProviderError} The provider needs an API key and its variable is unset;
   *   the message says which variable to export, or how to use a local server instead.
   */
  resolve(selection: ResolvedModelSelection): ResolvedModel {
    const { provider, model: id } = selection;
    const apiKey = this.config.apiKey(provider);
    if (!apiKey && KEY_REQUIRED.has(provider)) {
      throw new HarnessProviderError(
        `${this.config.keyVariable(provider)} is not set; export it or use ` +
          `--provider openai-compatible --base-url ${EXAMPLE_COMPATIBLE_BASE_URL}`,
      );
    }
    const baseURL = selection.baseUrl ?? undefined;
    switch (provider) {
      case 'openai':
        return { selection, model: aiSdk.openai().createOpenAI({ apiKey, baseURL })(id) };
      case 'anthropic':
        return { selection, model: aiSdk.anthropic().createAnthropic({ apiKey, baseURL })(id) };
      case 'google':
        return {
          selection,
          model: aiSdk.google().createGoogleGenerativeAI({ apiKey, baseURL })(id),
        };
      case 'openai-compatible': {
        const compatible = aiSdk.openaiCompatible().createOpenAICompatible({
          name: 'openai-compatible',
          baseURL: baseURL ?? EXAMPLE_COMPATIBLE_BASE_URL,
          apiKey,
          includeUsage: true,
        });
        return { selection, model: compatible.chatModel(id) };
      }
    }
  }

  /**
   * A one-line, key-free explanation of a failed model call: unreachable endpoint, refused key,
   * unknown model, or the provider's own message.
   * @param err - What `streamText` reported (retries unwrapped).
   * @param selection - The model that was called.
   */
  describeError(err: unknown, selection: ResolvedModelSelection): string {
    const { APICallError, RetryError } = aiSdk.core();
    const cause = RetryError.isInstance(err) ? err.lastError : err;
    const { provider, model } = selection;
    if (cause instanceof HarnessProviderError) return cause.message;
    const refused = connectionFailure(cause);
    if (refused) return unreachable(provider, selection.baseUrl ?? 'its default endpoint', refused);
    if (!APICallError.isInstance(cause)) return `${provider} call failed: ${messageOf(cause)}`;
    const status = cause.statusCode;
    if (status === undefined) {
      const reason = cause.cause === undefined ? cause.message : messageOf(cause.cause);
      return unreachable(provider, cause.url, reason);
    }
    if (status === 401 || status === 403) {
      return (
        `${provider} refused the request (HTTP ${status}): check ` +
        `${this.config.keyVariable(provider)}`
      );
    }
    if (status === 404) return `${provider} has no model ${model} (HTTP 404): ${cause.message}`;
    return `${provider} request failed (HTTP ${status}): ${cause.message}`;
  }
}
