import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { resolve } from 'node:path';
import { harnessConfig, storesConfig } from '../../../config/namespaces';
import type { HarnessServeSettings } from '../../../config/namespaces';
import { selectModel } from '../providers/model-selection';
import { SecretScrubber } from '../core/secret-scrubber';
import type { HarnessModelSelection } from '../providers/model-selection';
import { hideFromSandbox } from '../sandbox/sandbox-host';
import type { SandboxName } from '../sandbox/sandbox-probe';
import { withResolvedSandbox } from '../sandbox/spec-sandbox';
import { HarnessProviderError } from '../protocol/harness-protocol.errors';
import { loadHarnessSpecOrTemplate } from '../spec/harness-spec.loader';
import type { HarnessSpec } from '../spec/harness-spec.schema';

/**
 * What the A2A harness skill runs: the validated HarnessSpec (a file or a built-in template,
 * loaded once at start — a broken spec stops the server with the loader's message) with its
 * sandbox resolved (`auto` probed once), the working directory and the model choice from the
 * server configuration. The task store and the ledger are hidden from every sandbox.
 * @throws {HarnessSpecError} At start, for an invalid or unreadable spec.
 * @throws {Error} At start: the spec asks for bwrap and it does not work here; or an exposed
 *   server serves the harness with a sandbox other than bwrap without `allowUnsandboxed`.
 */
@Injectable()
export class HarnessRuntime {
  readonly spec: HarnessSpec;
  readonly specSource: string;
  readonly warnings: string[];
  readonly workingDir: string;
  readonly model: HarnessModelSelection;
  /** The sandbox tools and the server's git commands run in (`auto` resolved). */
  readonly sandbox: SandboxName;

  /**
   * @param h - The `harness` settings.
   * @param stores - The `stores` settings (the task store file is hidden from the sandbox).
   * @param scrubber - Secret values to keep out of what the skill sends (the changes diff).
   */
  constructor(
    @Inject(harnessConfig.KEY) h: ConfigType<typeof harnessConfig>,
    @Inject(storesConfig.KEY) stores: ConfigType<typeof storesConfig>,
    readonly scrubber: SecretScrubber,
  ) {
    // Not served: nothing runs, so a spec file is not even read (nor bwrap probed).
    const spec = h.served ? h.spec : 'coding';
    const loaded = loadHarnessSpecOrTemplate(spec);
    const resolved = h.served ? withResolvedSandbox(loaded.spec, loaded.source) : undefined;
    this.spec = resolved?.spec ?? loaded.spec;
    this.sandbox = resolved?.sandbox ?? 'local';
    this.specSource = loaded.source;
    this.warnings = [
      ...loaded.warnings,
      ...(resolved?.warnings ?? []),
      ...remoteSandboxPolicy(h, this.sandbox),
    ];
    this.workingDir = resolve(h.workingDir);
    this.model = { provider: h.provider, model: h.model, baseUrl: h.baseUrl };
    hideFromSandbox([stores.taskStorePath, h.storePath]);
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

/**
 * An exposed server (a remote bind, or `--allow-remote` on loopback as behind a proxy) serves the
 * harness only in the bwrap sandbox, unless `allowUnsandboxed` (`--allow-unsandboxed-harness`),
 * which is then warned about.
 * @returns The warning, or nothing.
 * @throws {Error} Exposed, served, not bwrap, not allowed.
 */
function remoteSandboxPolicy(h: HarnessServeSettings, sandbox: SandboxName): string[] {
  if (!h.served || !h.exposed || sandbox === 'bwrap') return [];
  if (!h.allowUnsandboxed) {
    throw new Error(
      `Refusing to serve the harness on a remote bind (or --allow-remote) with the "${sandbox}" sandbox: use a spec with ` +
        'execution_policy.sandbox "bwrap" (or "auto" where bubblewrap works), or pass ' +
        '--allow-unsandboxed-harness (SUPERQODE_A2A_ALLOW_UNSANDBOXED_HARNESS=true).',
    );
  }
  return [
    `--allow-unsandboxed-harness: the harness is served on a remote bind (or --allow-remote) with the "${sandbox}" sandbox; ` +
      "remote callers' commands run on this host as the server's user with NO isolation",
  ];
}
