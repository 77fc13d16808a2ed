/* eslint-disable @typescript-eslint/no-require-imports -- lazy by design (issue #13) */

/**
 * The Vercel AI SDK (`ai`) and its provider packages, loaded when a model is first built or
 * called, not when the harness modules load: a server with the harness off, and every CLI
 * command but `harness run`/`chat`, never loads them (issue #13: ~100 ms of start-up each).
 * Node caches each package after its first `require`, so later calls cost a map look-up.
 * Types stay `import type` at the call sites.
 * @see https://ai-sdk.dev/docs
 */
export const aiSdk = {
  /** `ai`: `streamText`, `generateText`, `tool`, `modelMessageSchema`, the error classes. */
  core: (): typeof import('ai') => require('ai') as typeof import('ai'),
  /** `@ai-sdk/openai` (`createOpenAI`). */
  openai: (): typeof import('@ai-sdk/openai') =>
    require('@ai-sdk/openai') as typeof import('@ai-sdk/openai'),
  /** `@ai-sdk/anthropic` (`createAnthropic`). */
  anthropic: (): typeof import('@ai-sdk/anthropic') =>
    require('@ai-sdk/anthropic') as typeof import('@ai-sdk/anthropic'),
  /** `@ai-sdk/google` (`createGoogleGenerativeAI`). */
  google: (): typeof import('@ai-sdk/google') =>
    require('@ai-sdk/google') as typeof import('@ai-sdk/google'),
  /** `@ai-sdk/openai-compatible` (`createOpenAICompatible`). */
  openaiCompatible: (): typeof import('@ai-sdk/openai-compatible') =>
    require('@ai-sdk/openai-compatible') as typeof import('@ai-sdk/openai-compatible'),
};
