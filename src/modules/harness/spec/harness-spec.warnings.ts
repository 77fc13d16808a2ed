import { type HarnessSpec, TOOL_PERMISSION_FLAG } from './harness-spec.schema';
import { valueAt } from './harness-spec.merge';

const TOOL_FLAGS = ['allow_read', 'allow_write', 'allow_shell', 'allow_network'] as const;

/**
 * Human-readable warnings about a valid spec's weak spots, each prefixed with `source`.
 * - `sandbox: local`: {@link localSandboxWarnings} (`auto` gets them when it resolves to local).
 * - shell allowed with an empty `allowed_commands`: any command may run.
 * - `flavor: no_tool` switched off `allow_*` flags the merged spec had turned on.
 * @param spec - The validated spec.
 * @param merged - The raw merged object the spec was validated from (before defaults).
 * @param source - The spec's file name, for the message prefix.
 * @returns Zero or more warning lines.
 */
export function specWarnings(spec: HarnessSpec, merged: unknown, source: string): string[] {
  const policy = spec.execution_policy;
  const warnings = policy.sandbox === 'local' ? localSandboxWarnings(spec) : [];
  if (policy.allow_shell && policy.allowed_commands.length === 0) {
    warnings.push('execution_policy.allowed_commands is empty: bash may run any command');
  }
  const forcedOff = TOOL_FLAGS.filter(
    (flag) => valueAt(merged, ['execution_policy', flag]) === true && spec.flavor === 'no_tool',
  );
  if (forcedOff.length > 0) {
    warnings.push(`flavor is no_tool: execution_policy.${forcedOff.join(', ')} forced off`);
  }
  spec.agents.forEach((agent, i) => {
    const off = (agent.tools ?? []).filter((t) => !spec.execution_policy[TOOL_PERMISSION_FLAG[t]]);
    if (off.length > 0) {
      warnings.push(
        `agents[${i}].tools: ${off.join(', ')} not allowed by execution_policy; not offered`,
      );
    }
  });
  return warnings.map((w) => `${source}: ${w}`);
}

/**
 * Warnings for a spec whose tools run with NO isolation (`sandbox: local`, or `auto` without a
 * working bwrap): any tool allowed means no isolation; shell allowed with `allow_network: false`
 * cannot be enforced. Not prefixed.
 * @param spec - The validated spec.
 */
export function localSandboxWarnings(spec: HarnessSpec): string[] {
  const policy = spec.execution_policy;
  const warnings: string[] = [];
  if (policy.allow_read || policy.allow_write || policy.allow_shell) {
    warnings.push(
      'execution_policy.sandbox is "local", which means NO isolation: tools run on this host as ' +
        "the server's user; file tools are confined to the working directory by path checks " +
        "only, and bash commands can reach anything the server's user can",
    );
  }
  if (policy.allow_shell && !policy.allow_network) {
    warnings.push(
      'execution_policy.allow_network is false, but the "local" sandbox cannot enforce it: ' +
        'bash commands can still reach the network',
    );
  }
  return warnings;
}
