import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { shortlistConfig } from '../../../config/namespaces';
import { constraintsPrompt, parseModelConstraints } from '../../shortlist/model-constraints';
import type { ModelConstraints } from '../../shortlist/model-constraints';
import { ShortlistRequestReader } from '../../shortlist/shortlist-request-reader';
import { HarnessModelResolver } from '../providers/harness-model.resolver';
import { aiSdk } from '../providers/ai-sdk.loader';
import { selectModel } from '../providers/model-selection';
import { HarnessRuntime } from './harness-runtime';

/** Characters of the request the model reads. */
export const MAX_REQUEST_CHARS = 800;
/** Output budget of one reading, tokens. */
export const MAX_READ_TOKENS = 512;

/**
 * Reads shortlist requests with the harness's configured model (issue #5): 800 characters in,
 * 512 tokens out, temperature 0, no retries, the configured time limit. The model is never sent
 * the catalogue and never asked to name a harness; its JSON is validated by a schema.
 * @throws {Error} No model configured, provider error, timeout, or an answer that is not the JSON
 *   asked for (the shortlist then uses the keyword parser).
 */
@Injectable()
export class ModelRequestReader extends ShortlistRequestReader {
  constructor(
    @Inject(shortlistConfig.KEY) private readonly config: ConfigType<typeof shortlistConfig>,
    private readonly runtime: HarnessRuntime,
    private readonly models: HarnessModelResolver,
  ) {
    super();
  }

  async read(text: string): Promise<ModelConstraints> {
    const selection = selectModel(this.runtime.model, this.runtime.spec.model_policy.primary);
    const { model } = this.models.resolve(selection);
    const result = await aiSdk.core().generateText({
      model,
      system: constraintsPrompt(),
      prompt: text.slice(0, MAX_REQUEST_CHARS),
      temperature: 0,
      maxOutputTokens: MAX_READ_TOKENS,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(this.config.understandTimeoutMs),
    });
    return parseModelConstraints(result.text);
  }
}
