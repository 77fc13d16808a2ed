import { Injectable } from '@nestjs/common';
import { resolve } from 'node:path';
import { A2aConfig } from '../../../config/a2a.config';
import { SecretScrubber } from '../core/secret-scrubber';
import type { HarnessModelSelection } from '../providers/model-selection';
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

  /**
   * @param config - Server settings.
   * @param scrubber - Secret values to keep out of what the skill sends (the changes diff).
   */
  constructor(
    config: A2aConfig,
    readonly scrubber: SecretScrubber,
  ) {
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
}
