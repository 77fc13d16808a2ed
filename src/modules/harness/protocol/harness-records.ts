import type { HarnessEvent, HarnessRunStatus } from './harness-events';

/**
 * Ledger records as the protocol returns them (snake_case JSON, ISO 8601 UTC timestamps).
 * The shapes of `harness runs/show/export` and of `HarnessProtocolController.export`.
 */

/** One harness session: a spec, a working directory and a conversation across runs. */
export interface HarnessSessionRecord {
  /** Random UUID. */
  id: string;
  created_at: string;
  /** `spec.name` of the spec the session runs. */
  spec_name: string;
  /** Absolute path of the working directory. */
  working_dir: string;
  /** Caller-supplied JSON object; `{}` when none. */
  metadata: Record<string, unknown>;
}

/** One run: a prompt sent to a session, possibly paused for approval and resumed. */
export interface HarnessRunRecord {
  /** Random UUID. */
  id: string;
  session_id: string;
  status: HarnessRunStatus;
  /** Provider id (`openai`, `anthropic`, `google`, `openai-compatible`); null when none resolved. */
  provider: string | null;
  model: string | null;
  started_at: string;
  /** When the run (or its latest segment) ended; null while running. */
  ended_at: string | null;
  /** The prompt's first 240 characters. */
  prompt_preview: string;
  /** Message of `run.failed`; null otherwise. */
  error: string | null;
}

/** A run with its events in sequence order. */
export interface HarnessRunDetail {
  run: HarnessRunRecord;
  events: HarnessEvent[];
}

/** A whole session: runs oldest first, each with its events. */
export interface HarnessSessionExport {
  session: HarnessSessionRecord;
  runs: HarnessRunDetail[];
}
