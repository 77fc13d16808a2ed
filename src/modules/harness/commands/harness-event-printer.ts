import type { HarnessEvent, HarnessEventDataMap } from '../protocol/harness-events';
import { TERMINAL_EVENT_TYPES } from '../protocol/harness-events';
import { HARNESS_EXIT } from './harness-cli';

/** Where the printer writes: the transcript (stdout) and diagnostics (stderr). */
export interface PrinterStreams {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Longest tool target shown in a summary line, characters. */
const MAX_TARGET_CHARS = 100;

/** Waiting time before a progress line appears, ms. */
const PROGRESS_AFTER_MS = 1500;

/** Interval of the progress line on a terminal / of a repeated line elsewhere, ms. */
const PROGRESS_TICK_MS = 500;
const PROGRESS_LINE_EVERY_MS = 10_000;

/** A text cut to `max` characters on one line. */
function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The summary line of a finished tool call. */
export function toolCompletedLine(data: HarnessEventDataMap['tool.completed']): string {
  if (data.refused)
    return `← ${data.tool_name} refused (${data.refused}): ${oneLine(data.output, 80)}`;
  const size = Buffer.byteLength(data.output);
  if (data.ok) return `← ${data.tool_name} ok (${data.duration_ms} ms, ${size} bytes)`;
  return `← ${data.tool_name} failed: ${oneLine(data.output, 80)}`;
}

/** The summary line of a finished check (`checks.custom_steps`). */
export function checkLine(data: HarnessEventDataMap['check.completed']): string {
  const verdict = data.ok
    ? 'passed'
    : data.timed_out
      ? 'timed out'
      : `failed (exit ${data.exit_code})`;
  return `check ${data.name} ${verdict} in ${data.duration_ms} ms: ${oneLine(data.command, MAX_TARGET_CHARS)}`;
}

/** The summary line of a tool call the model asked for. */
export function toolRequestedLine(data: HarnessEventDataMap['tool.requested']): string {
  const flag =
    data.decision === 'allow' ? '' : data.decision === 'deny' ? ' [denied]' : ' [needs approval]';
  return `→ ${data.tool_name}: ${oneLine(data.target, MAX_TARGET_CHARS)}${flag}`;
}

/**
 * Renders harness events on a terminal: assistant text as it streams, one line per tool call,
 * approvals, changed files and the outcome; a progress line on stderr while nothing arrives.
 * With `json`, stdout gets one JSON event per line instead.
 */
export class HarnessEventPrinter {
  /** The terminal event seen, if any. */
  terminal: HarnessEvent | null = null;
  private midLine = false;
  private lastEventAt = Date.now();
  private waitingFor = 'the model';
  private progressShown = false;
  private lastProgressLineAt = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly streams: PrinterStreams,
    private readonly json = false,
  ) {
    this.timer = setInterval(() => this.progress(), PROGRESS_TICK_MS);
    this.timer.unref();
  }

  /** Prints one event. */
  print(event: HarnessEvent): void {
    this.clearProgress();
    this.lastEventAt = Date.now();
    if (TERMINAL_EVENT_TYPES.has(event.type)) this.terminal = event;
    if (this.json) return void this.streams.out.write(`${JSON.stringify(event)}\n`);
    if (event.type === 'message.delta') {
      this.streams.out.write(event.data.text);
      this.midLine = !event.data.text.endsWith('\n');
      return;
    }
    const line = this.lineFor(event);
    if (line !== null) this.line(line.text, line.toErr);
  }

  /** Exit code for the outcome: 0 succeeded, 3 needs approval, 130 cancelled, 1 otherwise. */
  exitCode(): number {
    const t = this.terminal;
    if (t?.type === 'run.completed') {
      return t.data.status === 'succeeded' ? HARNESS_EXIT.ok : HARNESS_EXIT.needsApproval;
    }
    return t?.type === 'run.cancelled' ? HARNESS_EXIT.cancelled : HARNESS_EXIT.failed;
  }

  /** Stops the progress timer and ends a pending text line. */
  stop(): void {
    clearInterval(this.timer);
    this.clearProgress();
    if (this.midLine && !this.json) this.streams.out.write('\n');
    this.midLine = false;
  }

  private lineFor(event: HarnessEvent): { text: string; toErr?: boolean } | null {
    switch (event.type) {
      case 'run.started':
        return {
          text: `run ${event.run_id} (${event.data.provider ?? '?'}:${event.data.model ?? '?'})`,
          toErr: true,
        };
      case 'model.requested':
        this.waitingFor = 'the model';
        return null;
      case 'tool.requested':
        this.waitingFor = event.data.tool_name;
        return { text: toolRequestedLine(event.data) };
      case 'tool.completed':
        return { text: toolCompletedLine(event.data) };
      case 'approval.requested':
        return {
          text: `? approval needed: ${event.data.tool_name} ${oneLine(event.data.target, MAX_TARGET_CHARS)}`,
        };
      case 'approval.resolved':
        return {
          text: `${event.data.decision === 'approve' ? '✓ approved' : '✗ denied'} ${event.data.tool_name}`,
        };
      case 'artifact.created':
        return { text: `files changed: ${event.data.paths.join(', ')}` };
      case 'check.completed':
        return { text: checkLine(event.data) };
      default:
        return this.outcomeLine(event);
    }
  }

  private outcomeLine(event: HarnessEvent): { text: string; toErr?: boolean } | null {
    if (event.type === 'run.completed' && event.data.status === 'needs_approval') {
      const resume = `superqode harness resume ${event.run_id} approve|deny`;
      return { text: `run ${event.run_id} needs approval; continue with: ${resume}`, toErr: true };
    }
    if (event.type === 'run.completed') {
      const { iterations, usage } = event.data;
      const tokens = usage.total_tokens === null ? '' : `, ${usage.total_tokens} tokens`;
      return {
        text: `done (${iterations} model call${iterations === 1 ? '' : 's'}${tokens})`,
        toErr: true,
      };
    }
    if (event.type === 'run.failed') return { text: `error: ${event.data.message}`, toErr: true };
    if (event.type === 'run.cancelled')
      return { text: `cancelled: ${event.data.reason}`, toErr: true };
    return null;
  }

  private line(text: string, toErr = false): void {
    if (this.midLine) this.streams.out.write('\n');
    this.midLine = false;
    (toErr ? this.streams.err : this.streams.out).write(`${text}\n`);
  }

  private progress(): void {
    const waitedMs = Date.now() - this.lastEventAt;
    if (this.terminal || waitedMs < PROGRESS_AFTER_MS) return;
    const text = `… waiting for ${this.waitingFor} (${Math.round(waitedMs / 1000)} s)`;
    if (this.streams.err.isTTY) {
      this.streams.err.write(`\r\x1b[K${text}`);
      this.progressShown = true;
    } else if (Date.now() - this.lastProgressLineAt >= PROGRESS_LINE_EVERY_MS) {
      this.streams.err.write(`${text}\n`);
      this.lastProgressLineAt = Date.now();
    }
  }

  private clearProgress(): void {
    if (!this.progressShown) return;
    this.streams.err.write('\r\x1b[K');
    this.progressShown = false;
  }
}
