import { HarnessProviderError } from '../protocol/harness-protocol.errors';

/** Providers the harness can call through the Vercel AI SDK. */
export const HARNESS_PROVIDER_IDS = ['openai', 'anthropic', 'google', 'openai-compatible'] as const;

/** One of {@link HARNESS_PROVIDER_IDS}. */
export type HarnessProviderId = (typeof HARNESS_PROVIDER_IDS)[number];

/** Example base URL (Ollama) shown in messages about the openai-compatible provider. */
export const EXAMPLE_COMPATIBLE_BASE_URL = 'http://127.0.0.1:11434/v1';

/** Model choice from flags or a caller (`--provider`, `--model`, `--base-url`); all optional. */
export interface HarnessModelSelection {
  provider?: string;
  model?: string;
  /** http(s) base URL of the API, e.g. `http://127.0.0.1:11434/v1` (required for openai-compatible). */
  baseUrl?: string;
}

/** A complete, validated model choice. */
export interface ResolvedModelSelection {
  provider: HarnessProviderId;
  model: string;
  /** Without a trailing slash; null: the provider's default endpoint. */
  baseUrl: string | null;
}

/** True when `id` is one of {@link HARNESS_PROVIDER_IDS}. */
export function isHarnessProviderId(id: string): id is HarnessProviderId {
  return (HARNESS_PROVIDER_IDS as readonly string[]).includes(id);
}

/**
 * Splits `model_policy.primary` at its first `:` ("openai-compatible:llama3.1:8b" → provider
 * `openai-compatible`, model `llama3.1:8b`). Without a known provider prefix the whole string
 * is a model id.
 */
export function parsePrimaryModel(primary: string): { provider?: string; model: string } {
  const i = primary.indexOf(':');
  const prefix = i > 0 ? primary.slice(0, i) : '';
  if (isHarnessProviderId(prefix)) return { provider: prefix, model: primary.slice(i + 1) };
  return { model: primary };
}

/** Validates a base URL (http or https) and drops trailing slashes. */
function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HarnessProviderError(
      `--base-url ${raw} is not a URL (e.g. ${EXAMPLE_COMPATIBLE_BASE_URL})`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HarnessProviderError(`--base-url must be http(s), got ${url.protocol}`);
  }
  return raw.trim().replace(/\/+$/, '');
}

/**
 * The model a run uses: flags first, then the spec's `model_policy.primary` ("provider:model").
 * The spec's model applies only when no other provider was asked for.
 * @param selection - Flags or caller choice.
 * @param primary - `spec.model_policy.primary`, if any.
 * @throws {HarnessProviderError} Unknown provider, no provider or model, openai-compatible
 *   without a base URL, or a malformed base URL; the message names the flag to pass.
 */
export function selectModel(
  selection: HarnessModelSelection,
  primary: string | undefined,
): ResolvedModelSelection {
  const fromSpec = primary ? parsePrimaryModel(primary) : undefined;
  const provider = selection.provider ?? fromSpec?.provider;
  if (!provider) {
    throw new HarnessProviderError(
      'no model provider: pass --provider and --model, or set model_policy.primary ' +
        `("provider:model") in the spec; providers: ${HARNESS_PROVIDER_IDS.join(', ')}`,
    );
  }
  if (!isHarnessProviderId(provider)) {
    throw new HarnessProviderError(
      `unknown provider '${provider}'; use one of ${HARNESS_PROVIDER_IDS.join(', ')}`,
    );
  }
  const specApplies = !selection.provider || fromSpec?.provider === provider || !fromSpec?.provider;
  const model = selection.model ?? (specApplies ? fromSpec?.model : undefined);
  if (!model) {
    throw new HarnessProviderError(`no model for provider ${provider}: pass --model`);
  }
  const baseUrl = selection.baseUrl ? normaliseBaseUrl(selection.baseUrl) : null;
  if (provider === 'openai-compatible' && !baseUrl) {
    throw new HarnessProviderError(
      `provider openai-compatible needs --base-url (e.g. ${EXAMPLE_COMPATIBLE_BASE_URL} for Ollama)`,
    );
  }
  return { provider, model, baseUrl };
}
