/**
 * Canonical harness events: what a run reports, in order, to the ledger and to every consumer
 * (CLI, A2A). Field names are snake_case because the events are a wire and storage format.
 */

/** Every event type, in the order a typical run emits them. */
export const HARNESS_EVENT_TYPES = [
  'run.started',
  'message.created',
  'message.delta',
  'model.requested',
  'model.completed',
  'tool.requested',
  'tool.completed',
  'approval.requested',
  'approval.resolved',
  'artifact.created',
  'check.completed',
  'run.completed',
  'run.failed',
  'run.cancelled',
] as const;

/** One of {@link HARNESS_EVENT_TYPES}. */
export type HarnessEventType = (typeof HARNESS_EVENT_TYPES)[number];

/** Event types that end a run segment (a paused run resumes after `run.completed` needs_approval). */
export const TERMINAL_EVENT_TYPES: ReadonlySet<HarnessEventType> = new Set([
  'run.completed',
  'run.failed',
  'run.cancelled',
]);

/** Status of a run in the ledger (`runs.status`). */
export type HarnessRunStatus = 'running' | 'succeeded' | 'needs_approval' | 'failed' | 'cancelled';

/** What the permission check said about a tool call (from `decidePermission`). */
export type HarnessPermissionDecision = 'allow' | 'deny' | 'ask';

/** A human decision on a pending tool call. */
export type HarnessApprovalDecision = 'approve' | 'deny';

/** Token counts of one model call or a whole run segment; null where the provider gave none. */
export interface HarnessUsage {
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
}

/** A tool call as the model asked for it. `input` is the parsed JSON arguments. */
export interface HarnessToolCall {
  tool_call_id: string;
  tool_name: string;
  input: unknown;
}

/** Payload of each event type. */
export interface HarnessEventDataMap {
  /** `base_url` only for providers given one; `provider`/`model` null when none could be chosen. */
  'run.started': {
    prompt: string;
    provider: string | null;
    model: string | null;
    base_url: string | null;
    working_dir: string;
  };
  /** The user prompt (right after `run.started`) or the final assistant text of a run. */
  'message.created': { role: 'user' | 'assistant'; text: string };
  /** A piece of assistant text as it streams. */
  'message.delta': { text: string };
  /** `iteration` is 1-based per run; `tools` are the names offered to the model. */
  'model.requested': { iteration: number; provider: string; model: string; tools: string[] };
  /**
   * `messages` are the model messages this call added to the conversation (AI SDK
   * `ModelMessage` JSON): the ledger replays them to continue a session or resume a run.
   */
  'model.completed': {
    iteration: number;
    finish_reason: string;
    usage: HarnessUsage;
    text: string;
    tool_calls: HarnessToolCall[];
    messages: unknown[];
  };
  /** `target` is what the permission rules matched (path, command, URL). */
  'tool.requested': HarnessToolCall & { target: string; decision: HarnessPermissionDecision };
  /**
   * `output` is capped at `limits.max_output_bytes` (with a truncation notice). `refused` says
   * who refused a call that did not run (`policy` or `user`); null when the tool ran.
   */
  'tool.completed': {
    tool_call_id: string;
    tool_name: string;
    ok: boolean;
    output: string;
    duration_ms: number;
    refused: 'policy' | 'user' | null;
  };
  /** The tool call waiting for a human decision (`resume(run_id, 'approve' | 'deny')`). */
  'approval.requested': HarnessToolCall & { target: string };
  'approval.resolved': {
    tool_call_id: string;
    tool_name: string;
    decision: HarnessApprovalDecision;
  };
  /** Paths (relative to the working dir, `/`-separated) this run segment created or changed. */
  'artifact.created': { paths: string[] };
  /**
   * One `checks.custom_steps` entry, run after the model's last turn in the run's sandbox:
   * `exit_code` null when killed or not started; `output_tail` the end of its output.
   */
  'check.completed': {
    name: string;
    command: string;
    ok: boolean;
    exit_code: number | null;
    timed_out: boolean;
    duration_ms: number;
    output_tail: string;
  };
  /**
   * `stop_reason`: the model stopped (`stop`), the iteration cap hit (`max_iterations`), or a
   * tool call waits for approval (`approval`, status `needs_approval`).
   */
  'run.completed': {
    status: 'succeeded' | 'needs_approval';
    stop_reason: 'stop' | 'max_iterations' | 'approval';
    text: string;
    iterations: number;
    usage: HarnessUsage;
  };
  /** `code`: what failed (provider, timeout, interrupted, internal, checks); `message` is for people. */
  'run.failed': { code: HarnessFailureCode; message: string };
  'run.cancelled': { reason: string };
}

/** Failure classes of `run.failed`. */
export type HarnessFailureCode = 'provider' | 'timeout' | 'interrupted' | 'internal' | 'checks';

/** Envelope of one event of type `K`. */
export interface HarnessEventOf<K extends HarnessEventType> {
  /** Random UUID. */
  event_id: string;
  session_id: string;
  run_id: string;
  /** 1-based, gap-free per run, continued across a resume. */
  sequence: number;
  /** ISO 8601 UTC, when the event was recorded. */
  timestamp: string;
  type: K;
  data: HarnessEventDataMap[K];
}

/** Any harness event (discriminated by `type`). */
export type HarnessEvent = { [K in HarnessEventType]: HarnessEventOf<K> }[HarnessEventType];

/** True when `type` is one of {@link HARNESS_EVENT_TYPES}. */
export function isHarnessEventType(type: string): type is HarnessEventType {
  return (HARNESS_EVENT_TYPES as readonly string[]).includes(type);
}

/** Narrows an event to type `K` (type guard for consumers and the ledger). */
export function isEventOf<K extends HarnessEventType>(
  event: HarnessEvent,
  type: K,
): event is Extract<HarnessEvent, { type: K }> {
  return event.type === type;
}
