import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { statSync } from 'node:fs';
import type { ConfigType } from '@nestjs/config';
import { harnessConfig } from '../../../config/namespaces';
import { HarnessProtocolController } from '../protocol/harness-protocol';
import { HarnessProviderError } from '../protocol/harness-protocol.errors';
import { HarnessModelResolver } from '../providers/harness-model.resolver';
import { selectModel } from '../providers/model-selection';
import { EMBEDDED_HARNESS_CONTROLLER } from './active-harness';
import { HarnessRuntime } from './harness-runtime';

/**
 * Settings the served harness needs, checked before the server listens so a bad one stops the
 * start with what to fix instead of failing the first task: the working directory exists and is
 * a directory; the model's provider has its API key variable set (`resolve` makes no call). The
 * spec is loaded (and refused) by {@link HarnessRuntime}; its warnings are logged by the skill.
 * Skipped when the harness is not served or an embedder supplies its own controller.
 * @throws {Error} At start, naming the setting and how to fix it.
 */
@Injectable()
export class HarnessStartupChecks implements OnModuleInit {
  constructor(
    @Inject(harnessConfig.KEY) private readonly harness: ConfigType<typeof harnessConfig>,
    private readonly runtime: HarnessRuntime,
    private readonly models: HarnessModelResolver,
    @Optional()
    @Inject(EMBEDDED_HARNESS_CONTROLLER)
    private readonly embedded?: HarnessProtocolController,
  ) {}

  onModuleInit(): void {
    if (!this.harness.served || this.embedded) return;
    checkWorkingDir(this.runtime.workingDir);
    // No model choice at all: the skill is not served and says why at start (HarnessSkill).
    if (this.runtime.modelProblem() !== null) return;
    try {
      this.models.resolve(selectModel(this.runtime.model, this.runtime.spec.model_policy.primary));
    } catch (err) {
      if (err instanceof HarnessProviderError)
        throw new Error(`Cannot serve the harness: ${err.message}.`);
      throw err;
    }
  }
}

/** @throws {Error} `dir` is missing or not a directory. */
function checkWorkingDir(dir: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    throw new Error(
      `Cannot serve the harness: the working directory ${dir} does not exist (--working-dir, SUPERQODE_A2A_WORKING_DIR).`,
    );
  }
  if (!isDirectory) {
    throw new Error(
      `Cannot serve the harness: the working directory ${dir} is not a directory (--working-dir, SUPERQODE_A2A_WORKING_DIR).`,
    );
  }
}
