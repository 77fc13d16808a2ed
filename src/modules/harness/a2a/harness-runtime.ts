import { Injectable } from '@nestjs/common';
import { resolve } from 'node:path';
import { A2aConfig } from '../../../config/a2a.config';
import { selectModel } from '../providers/model-selection';
import type { HarnessModelSelection } from '../providers/model-selection';
import { HarnessProviderError } from '../protocol/harness-protocol.errors';
import { loadHarnessSpec, parseHarnessSpec } from '../spec/harness-spec.loader';
import { isBuiltinTemplateName } from '../spec/harness-spec.templates';
import type { HarnessSpec } from '../spec/harness-spec.schema';

/**
 * What the A2A harness skill runs: the validated HarnessSpec (a file or a built-in template,
 * loaded once at start — a broken spec stops the server with the loader's message), the working
 * directory and the model choice from the server configuration.
 * @throws {HarnessSpecError} At start, for an invalid or unreadable spec.
 */
@Injectable()
export class HarnessRuntime {
  readonly spec: HarnessSpec;
  readonly specSource: string;
  readonly warnings: string[];
  readonly workingDir: string;
  readonly model: HarnessModelSelection;

  constructor(config: A2aConfig) {
    const h = config.harness;
    // Not served: nothing runs, so a spec file is not even read.
    const spec = h.served ? h.spec : 'coding';
    const loaded = isBuiltinTemplateName(spec)
      ? parseHarnessSpec(JSON.stringify({ inherits: spec, name: `builtin-${spec}` }), `builtin:${spec}`, process.cwd())
      : loadHarnessSpec(spec);
    this.spec = loaded.spec;
    this.specSource = loaded.source;
    this.warnings = loaded.warnings;
    this.workingDir = resolve(h.workingDir);
    this.model = { provider: h.provider, model: h.model, baseUrl: h.baseUrl };
  }

  /**
   * Why the configured model choice cannot run (the provider error's message: no provider, no
   * model, openai-compatible without a base URL…), or null when it resolves. Makes no call.
   */
  modelProblem(): string | null {
    try {
      selectModel(this.model, this.spec.model_policy.primary);
      return null;
    } catch (err) {
      if (err instanceof HarnessProviderError) return err.message;
      throw err;
    }
  }
}
