import { performance } from 'node:perf_hooks';
import type {
  HarnessApprovalDecision,
  HarnessEventDataMap,
  HarnessToolCall,
} from '../protocol/harness-events';
import { decidePermission } from '../tools/harness-tool';
import type { HarnessTool, ToolResult } from '../tools/harness-tool';
import type { RunRecorder } from './run-recorder';
import type { RunSettings } from './run-settings';

/** Tool result of a call the execution policy refuses. */
export const DENIED_BY_POLICY = 'denied by policy';

/** Tool result of a call a human refused on `resume(runId, 'deny')`. */
export const DENIED_BY_USER = 'denied by user';

/** A tool call from the model; `error` when the SDK could not parse it (bad JSON, no such tool). */
export interface ModelToolCall extends HarnessToolCall {
  error?: string;
}

/** A call waiting for a human decision (the data of its `approval.requested`). */
export type PendingApproval = HarnessEventDataMap['approval.requested'];

/** What tool handling needs from the run. */
export interface ToolCallScope {
  recorder: RunRecorder;
  settings: RunSettings;
  signal: AbortSignal;
}

/** The data of a `tool.completed` event: what the model gets back for a call. */
export type ToolCompleted = HarnessEventDataMap['tool.completed'];

/** Tool results and pending approvals of a batch of calls, in call order. */
export interface ToolCallsOutcome {
  results: ToolCompleted[];
  pending: PendingApproval[];
}

type Completion = Omit<ToolCompleted, 'tool_call_id' | 'tool_name'>;

async function complete(
  scope: ToolCallScope,
  call: HarnessToolCall,
  completion: Completion,
): Promise<ToolCompleted> {
  const { tool_call_id, tool_name } = call;
  return (await scope.recorder.emit('tool.completed', { tool_call_id, tool_name, ...completion }))
    .data;
}

function refusal(output: string, refused: Completion['refused']): Completion {
  return { ok: false, output, duration_ms: 0, refused };
}

/**
 * Runs a tool with the run's signal and records `tool.completed` (tools cap their own output
 * at `limits.max_output_bytes` and resolve rather than throw; a throw still becomes a result).
 */
export async function executeTool(
  tool: HarnessTool,
  call: HarnessToolCall,
  scope: ToolCallScope,
): Promise<ToolCompleted> {
  const { workingDir, spec } = scope.settings;
  const started = performance.now();
  let result: ToolResult;
  try {
    result = await tool.execute(call.input, { workingDir, spec, signal: scope.signal });
  } catch (err) {
    result = {
      ok: false,
      output: `${tool.name} failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  const duration_ms = Math.round(performance.now() - started);
  return complete(scope, call, {
    ok: result.ok,
    output: result.output,
    duration_ms,
    refused: null,
  });
}

/**
 * One tool call of a model turn: `tool.requested` with the permission decision, then
 * allow → run it; deny → result {@link DENIED_BY_POLICY}; ask → `approval.requested`, not run.
 * A tool that is not offered (or a call the SDK could not parse) gets an error result.
 * @returns The tool result, or the pending approval.
 */
export async function handleToolCall(
  call: ModelToolCall,
  scope: ToolCallScope,
): Promise<ToolCompleted | PendingApproval> {
  const { tool_call_id, tool_name, input } = call;
  const tool = scope.settings.tools.find((t) => t.name === tool_name);
  const target = tool && !call.error ? tool.target(input) : '';
  const decision = tool
    ? await decidePermission(scope.settings.spec, tool.name, target, scope.settings.workingDir)
    : 'deny';
  await scope.recorder.emit('tool.requested', { tool_call_id, tool_name, input, target, decision });
  if (!tool) return complete(scope, call, notOffered(tool_name));
  if (call.error) return complete(scope, call, refusal(`invalid tool call: ${call.error}`, null));
  if (decision === 'deny') return complete(scope, call, refusal(DENIED_BY_POLICY, 'policy'));
  if (decision === 'allow') return executeTool(tool, call, scope);
  const pending: PendingApproval = { tool_call_id, tool_name, input, target };
  await scope.recorder.emit('approval.requested', pending);
  return pending;
}

/** Result of a call to a tool the harness does not offer. */
function notOffered(toolName: string): Completion {
  return refusal(`${DENIED_BY_POLICY}: tool ${toolName} is not offered`, 'policy');
}

/** The tool calls of one model turn, in order; stops early once the run is aborted. */
export async function handleToolCalls(
  calls: ModelToolCall[],
  scope: ToolCallScope,
): Promise<ToolCallsOutcome> {
  const outcome: ToolCallsOutcome = { results: [], pending: [] };
  for (const call of calls) {
    if (scope.signal.aborted) break;
    const handled = await handleToolCall(call, scope);
    if ('ok' in handled) outcome.results.push(handled);
    else outcome.pending.push(handled);
  }
  return outcome;
}

/**
 * Applies a human decision to a pending call: `approval.resolved`, then approve → run the tool
 * (no second permission check), deny → result {@link DENIED_BY_USER}.
 * @returns The tool result.
 */
export async function resolveApproval(
  pending: PendingApproval,
  decision: HarnessApprovalDecision,
  scope: ToolCallScope,
): Promise<ToolCompleted> {
  const { tool_call_id, tool_name } = pending;
  await scope.recorder.emit('approval.resolved', { tool_call_id, tool_name, decision });
  const tool = scope.settings.tools.find((t) => t.name === tool_name);
  if (decision === 'deny') return complete(scope, pending, refusal(DENIED_BY_USER, 'user'));
  if (!tool) return complete(scope, pending, notOffered(tool_name));
  return executeTool(tool, pending, scope);
}
