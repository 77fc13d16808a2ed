import path from 'node:path';
import picomatch from 'picomatch';
import {
  type HarnessSpec,
  type PermissionRule,
  TOOL_PERMISSION_FLAG,
} from '../spec/harness-spec.schema';
import { analyzeCommandLine } from './bash-command-line';
import { confineForWrite } from './confine';
import { refuseGitWrite } from './confined-files';
import type { HarnessToolName } from './harness-tool';

/** What the run loop does with a tool call: run it, refuse it, or ask a human first. */
export type PermissionDecision = 'allow' | 'deny' | 'ask';

const SEVERITY: Record<PermissionDecision, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * Whether the spec's execution policy enables a tool at all (`allow_read`, `allow_write`,
 * `allow_shell`; nothing for `flavor: no_tool`).
 * @param spec - A validated spec.
 * @param tool - A tool name.
 */
export function isToolAllowed(spec: HarnessSpec, tool: HarnessToolName): boolean {
  return spec.flavor !== 'no_tool' && spec.execution_policy[TOOL_PERMISSION_FLAG[tool]];
}

/**
 * Decides a tool call with `execution_policy.permission_rules`: the first rule whose `tool`
 * glob matches the tool name and whose `pattern` matches the target wins; no match allows.
 * A tool the execution policy does not enable is always denied.
 *
 * Matching: file targets are normalized (`./a/../b` → `b`) and matched with picomatch
 * (`dot: true`, so `**` covers dotfiles); an absolute target is also matched by each of its
 * trailing segments (so `.env` rules catch `/abs/dir/.env`). For `bash`, `*` and `?` match any
 * characters including `/`, and the line is judged as a whole and as each simple command in it
 * (`git status; rm x` meets `rm *`). With several candidates the most restrictive result wins
 * (deny over ask over allow), so extra candidates can only tighten a decision. A line the
 * command checker cannot classify with certainty (`analyzeCommandLine` reports a problem) is
 * denied whenever a rule applies to `bash`.
 *
 * With `workingDir`, a file tool's target is also resolved (symlinks followed, as the tool
 * will) and matched as its path relative to the working directory's realpath: a rule denies
 * if either the requested or the resolved path is denied. `write_file` and `edit_file` under
 * any `.git/` (requested or resolved) are denied unless `execution_policy.allow_git_writes`.
 * @param spec - A validated spec.
 * @param tool - The tool being called.
 * @param target - `HarnessTool.target(input)`: path, glob pattern or command line.
 * @param workingDir - The run's working directory; without it file targets are matched as
 *   requested only.
 * @returns `allow`, `deny` or `ask`; async because the shell parser loads lazily.
 * @see ../spec/harness-spec.schema.ts, `permissionRuleSchema`.
 */
export async function decidePermission(
  spec: HarnessSpec,
  tool: HarnessToolName,
  target: string,
  workingDir?: string,
): Promise<PermissionDecision> {
  if (!isToolAllowed(spec, tool)) return 'deny';
  const rules = spec.execution_policy.permission_rules.filter((rule) =>
    picomatch.isMatch(tool, rule.tool),
  );
  const writes = tool === 'write_file' || tool === 'edit_file';
  if (rules.length === 0 && !writes) return 'allow';
  const matches = tool === 'bash' ? commandMatcher : pathMatcher;
  const candidates = await candidatesFor(tool, target, workingDir);
  if (!candidates) return 'deny';
  if (writes && candidates.some((c) => refuseGitWrite(spec, c))) return 'deny';
  return candidates
    .map((candidate) => rules.find((rule) => matches(rule.pattern, candidate))?.action ?? 'allow')
    .reduce(
      (worst, d) => (SEVERITY[d] > SEVERITY[worst] ? d : worst),
      'allow' as PermissionDecision,
    );
}

/** What rules are matched against; `undefined` for a command line that cannot be checked. */
async function candidatesFor(
  tool: HarnessToolName,
  target: string,
  workingDir: string | undefined,
): Promise<string[] | undefined> {
  if (tool === 'bash') {
    const { commands, problem } = await analyzeCommandLine(target);
    if (problem) return undefined;
    return [target.trim(), ...commands.map((words) => words.join(' '))];
  }
  const requested = pathCandidates(target);
  if (!workingDir || tool === 'glob') return requested;
  const resolved = await confineForWrite(workingDir, target);
  return resolved.ok ? [...requested, resolved.rel.split(path.sep).join('/')] : requested;
}

function pathCandidates(target: string): string[] {
  const normalized = path.posix.normalize(target.replace(/\\/g, '/') || '.').replace(/\/+$/, '');
  if (!normalized.startsWith('/')) return [normalized.replace(/^(\.\/)+/, '') || '.'];
  const segments = normalized.split('/').filter(Boolean);
  return [normalized, ...segments.map((_, i) => segments.slice(i).join('/'))];
}

/** picomatch, except that catch-all patterns (only `*` and `/`) also match `.` itself. */
function pathMatcher(pattern: PermissionRule['pattern'], candidate: string): boolean {
  if (candidate === '.' && /^[*/]+$/.test(pattern)) return true;
  return picomatch.isMatch(candidate, pattern, { dot: true });
}

const commandPatterns = new Map<string, RegExp>();

/** `*` and `?` over a whole command line: any characters, `/` and newlines included. */
function commandMatcher(pattern: string, candidate: string): boolean {
  let regex = commandPatterns.get(pattern);
  if (!regex) {
    const body = pattern
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    regex = new RegExp(`^${body}$`, 's');
    commandPatterns.set(pattern, regex);
  }
  return regex.test(candidate);
}
