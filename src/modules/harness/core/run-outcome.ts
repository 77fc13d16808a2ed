import type {
  HarnessEventDataMap,
  HarnessFailureCode,
  HarnessUsage,
} from '../protocol/harness-events';
import { HarnessProviderError } from '../protocol/harness-protocol.errors';
import type { RunRecorder } from './run-recorder';

/** Why a run's AbortController fired. */
export type RunAbortKind = 'cancel' | 'timeout' | 'shutdown';

/** The abort reason of a run: who stopped it and what `run.cancelled` / `run.failed` says. */
export class RunAbort extends Error {
  constructor(
    readonly kind: RunAbortKind,
    message: string,
  ) {
    super(message);
    this.name = RunAbort.name;
  }
}

/** The terminal event a run segment ends with. */
export type RunTerminal =
  | { type: 'run.completed'; data: HarnessEventDataMap['run.completed'] }
  | { type: 'run.failed'; data: HarnessEventDataMap['run.failed'] }
  | { type: 'run.cancelled'; data: HarnessEventDataMap['run.cancelled'] };

/** A `run.failed` terminal. */
export function failed(code: HarnessFailureCode, message: string): RunTerminal {
  return { type: 'run.failed', data: { code, message } };
}

/** Message of `run.failed` when `limits.task_timeout_seconds` is reached. */
export function timeoutMessage(seconds: number): string {
  return `task timeout of ${seconds} s reached`;
}

/**
 * The terminal event for an error thrown by a run segment: an abort becomes `run.cancelled`
 * (cancel, shutdown) or `run.failed` code `timeout`; a provider error `run.failed` code
 * `provider`; anything else `run.failed` code `internal` with the error's message.
 * @param signal - The run's signal (its reason tells an abort from a failure).
 */
export function terminalFor(err: unknown, signal: AbortSignal): RunTerminal {
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (reason instanceof RunAbort) {
    if (reason.kind === 'timeout') return failed('timeout', reason.message);
    return { type: 'run.cancelled', data: { reason: reason.message } };
  }
  if (err instanceof HarnessProviderError) return failed('provider', err.message);
  return failed('internal', err instanceof Error ? err.message : String(err));
}

/** Adds `more` to `total` (null counts stay null only while nothing was counted). */
export function addUsage(total: HarnessUsage, more: HarnessUsage): HarnessUsage {
  const add = (a: number | null, b: number | null): number | null =>
    a === null && b === null ? null : (a ?? 0) + (b ?? 0);
  return {
    input_tokens: add(total.input_tokens, more.input_tokens),
    output_tokens: add(total.output_tokens, more.output_tokens),
    total_tokens: add(total.total_tokens, more.total_tokens),
  };
}

/** Usage before any model call. */
export const NO_USAGE: HarnessUsage = {
  input_tokens: null,
  output_tokens: null,
  total_tokens: null,
};

/** Records a terminal event. */
export async function emitTerminal(recorder: RunRecorder, terminal: RunTerminal): Promise<void> {
  switch (terminal.type) {
    case 'run.completed':
      await recorder.emit(terminal.type, terminal.data);
      return;
    case 'run.failed':
      await recorder.emit(terminal.type, terminal.data);
      return;
    case 'run.cancelled':
      await recorder.emit(terminal.type, terminal.data);
  }
}
