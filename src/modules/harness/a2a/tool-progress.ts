import type { HarnessEvent } from '../protocol/harness-events';

type Requested = Extract<HarnessEvent, { type: 'tool.requested' }>['data'];
type Completed = Extract<HarnessEvent, { type: 'tool.completed' }>['data'];

/** Longest tool target shown in a progress line, in characters (the metadata holds it whole). */
export const PROGRESS_TARGET_CHARS = 200;

/** One WORKING progress line and the metadata of its status message. */
export interface ToolProgress {
  text: string;
  /** `superqodeTool`, `superqodeToolTarget`, `superqodeToolCallId`, `superqodeToolPhase` (awaiting_approval | started | completed), and `superqodeToolOk` once completed. */
  metadata: Record<string, unknown>;
}

/**
 * Progress lines for the tool calls of a turn: "running bash: npm test" when a call starts,
 * "wrote src/a.ts" / "bash failed: npm test" when it ends. Remembers each call's target between
 * its start and its end (calls waiting for approval are not started).
 */
export class ToolProgressLines {
  private readonly targets = new Map<string, string>();

  /** Remembers a call's target from an earlier turn (the call an approval reply resumes). */
  remember(callId: string, target: string): void {
    this.targets.set(callId, target);
  }

  /** The start line of an approved call, when the approval reply resumes the run. */
  approved(callId: string, tool: string): ToolProgress {
    const target = this.targets.get(callId) ?? '';
    return {
      text: `running ${tool}: ${short(target)}`,
      metadata: meta(tool, target, callId, 'started'),
    };
  }

  /** The start line of an allowed call; undefined for a call that waits for approval or is refused. */
  started(call: Requested): ToolProgress | undefined {
    this.targets.set(call.tool_call_id, call.target);
    if (call.decision !== 'allow') return undefined;
    return {
      text: `running ${call.tool_name}: ${short(call.target)}`,
      metadata: meta(call.tool_name, call.target, call.tool_call_id, 'started'),
    };
  }

  /** The end line of a call (ran, failed or refused). */
  completed(done: Completed): ToolProgress {
    const target = this.targets.get(done.tool_call_id) ?? '';
    this.targets.delete(done.tool_call_id);
    const text = done.refused
      ? `${done.tool_name} refused by ${done.refused}: ${short(target)}`
      : done.ok
        ? okLine(done.tool_name, target)
        : `${done.tool_name} failed: ${short(target)}`;
    return {
      text,
      metadata: {
        ...meta(done.tool_name, target, done.tool_call_id, 'completed'),
        superqodeToolOk: done.ok,
      },
    };
  }
}

const PAST: Record<string, string> = {
  write_file: 'wrote',
  edit_file: 'edited',
  read_file: 'read',
  list_directory: 'listed',
};

function okLine(tool: string, target: string): string {
  return PAST[tool] ? `${PAST[tool]} ${short(target)}` : `${tool} finished: ${short(target)}`;
}

function short(target: string): string {
  const line = target.replace(/\s+/g, ' ').trim();
  return line.length > PROGRESS_TARGET_CHARS ? `${line.slice(0, PROGRESS_TARGET_CHARS)}…` : line;
}

/** Metadata naming a tool call: tool, target, call id and phase. */
export function meta(
  tool: string,
  target: string,
  callId: string,
  phase: 'awaiting_approval' | 'started' | 'completed',
): Record<string, unknown> {
  return {
    superqodeTool: tool,
    superqodeToolTarget: target,
    superqodeToolCallId: callId,
    superqodeToolPhase: phase,
  };
}
