import { HarnessSpecError, HarnessSpecErrorCode } from '../spec/harness-spec.errors';
import type { HarnessSpec } from '../spec/harness-spec.schema';
import { localSandboxWarnings } from '../spec/harness-spec.warnings';
import { probeBwrap, type SandboxName } from './sandbox-probe';

/** A spec with its sandbox resolved (never `auto`) and what to warn about at start. */
export interface ResolvedSandboxSpec {
  spec: HarnessSpec;
  sandbox: SandboxName;
  warnings: string[];
}

/**
 * Resolves `execution_policy.sandbox` once at start: `auto` becomes `bwrap` when
 * {@link probeBwrap} succeeds, else `local` with the local-sandbox warnings; `bwrap` must work.
 * @param spec - A validated spec.
 * @param source - The spec's name for warning prefixes.
 * @throws {HarnessSpecError} `Invalid`: the spec asks for `bwrap` and bubblewrap does not work here.
 */
export function withResolvedSandbox(spec: HarnessSpec, source: string): ResolvedSandboxSpec {
  const requested = spec.execution_policy.sandbox;
  if (requested === 'local') return { spec, sandbox: 'local', warnings: [] };
  const probe = probeBwrap();
  if (requested === 'bwrap' && !probe.ok) {
    throw new HarnessSpecError(HarnessSpecErrorCode.Invalid, [
      `${source}: execution_policy.sandbox: "bwrap", but bubblewrap does not work here: ${probe.reason}`,
    ]);
  }
  const sandbox: SandboxName = probe.ok ? 'bwrap' : 'local';
  const resolved = { ...spec, execution_policy: { ...spec.execution_policy, sandbox } };
  const warnings = probe.ok
    ? []
    : [
        `execution_policy.sandbox is "auto" and bubblewrap does not work here (${probe.reason}): using "local"`,
        ...localSandboxWarnings(spec),
      ];
  return { spec: resolved, sandbox, warnings: warnings.map((w) => `${source}: ${w}`) };
}
