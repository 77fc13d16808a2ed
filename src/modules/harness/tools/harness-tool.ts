import type { z } from 'zod';
import type { HarnessSpec, HARNESS_TOOL_NAMES } from '../spec/harness-spec.schema';
import { bashTool } from './bash.tool';
import { editFileTool } from './edit-file.tool';
import { globTool } from './glob.tool';
import { grepTool } from './grep.tool';
import { listDirectoryTool } from './list-directory.tool';
import { isToolAllowed } from './permission';
import { readFileTool } from './read-file.tool';
import { writeFileTool } from './write-file.tool';

export { decidePermission, type PermissionDecision } from './permission';

/**
 * Name of a harness tool: `read_file` | `list_directory` | `glob` | `grep` | `write_file` |
 * `edit_file` | `bash`.
 */
export type HarnessToolName = (typeof HARNESS_TOOL_NAMES)[number];

/**
 * What a tool runs against.
 * - `workingDir`: the only directory tools may touch (paths are confined to its realpath).
 * - `spec`: the harness spec; tools read `limits` and `execution_policy` from it.
 * - `signal`: aborts a running tool (bash kills its process group).
 */
export interface ToolContext {
  workingDir: string;
  spec: HarnessSpec;
  signal: AbortSignal;
}

/**
 * A tool's answer to the model. `output` is already capped at `limits.max_output_bytes`
 * (UTF-8 bytes, a truncation notice included). `ok: false` carries a refusal or error
 * message; tools never throw for expected failures.
 */
export interface ToolResult {
  ok: boolean;
  output: string;
}

/**
 * A tool offered to the model.
 * - `inputSchema`: zod object describing the input, for the model's tool definition.
 * - `target(input)`: what permission rules match: the path as given (normalized) for file
 *   tools, the pattern for `glob`, the command line for `bash`; `''` for invalid input.
 * - `execute(input, ctx)`: validates `input` itself; resolves to an `ok: false` result (never
 *   rejects) on invalid input, refusals, errors, timeouts and cancellation.
 */
export interface HarnessTool {
  name: HarnessToolName;
  description: string;
  inputSchema: z.ZodObject<z.ZodRawShape>;
  target(input: unknown): string;
  execute(input: unknown, ctx: ToolContext): Promise<ToolResult>;
}

const ALL_TOOLS: readonly HarnessTool[] = [
  readFileTool,
  listDirectoryTool,
  globTool,
  grepTool,
  writeFileTool,
  editFileTool,
  bashTool,
];

/**
 * The tools a spec offers: read_file, list_directory, glob, grep when `allow_read`;
 * write_file, edit_file when `allow_write`; bash when `allow_shell`; none for
 * `flavor: no_tool`. With `agentId`, that agent's `tools` list (when set) narrows the set
 * further; it never adds a tool the execution policy forbids.
 * @param spec - A validated spec.
 * @param agentId - Optional id from `spec.agents`.
 * @returns Tools in a stable order (the order above).
 * @throws {Error} `agentId` is not defined in `spec.agents`.
 */
export function toolsFor(spec: HarnessSpec, agentId?: string): HarnessTool[] {
  if (spec.flavor === 'no_tool') return [];
  const allowed = ALL_TOOLS.filter((tool) => isToolAllowed(spec, tool.name));
  if (agentId === undefined) return allowed;
  const agent = spec.agents.find((a) => a.id === agentId);
  if (!agent) {
    const known = spec.agents.map((a) => a.id).join(', ') || 'none';
    throw new Error(`harness "${spec.name}" has no agent "${agentId}" (agents: ${known})`);
  }
  const narrowed = agent.tools;
  return narrowed ? allowed.filter((tool) => narrowed.includes(tool.name)) : allowed;
}
