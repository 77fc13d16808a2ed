import { Redactor } from './redact';

/** Stage of a connection an entry belongs to. */
export type TraceStage = 'discovery' | 'interface' | 'auth' | 'call' | 'oauth';

/** One line of the connection trace, already redacted. */
export interface TraceEntry {
  /** Stage, printed as a `[stage]` prefix. */
  stage: TraceStage;
  /** `→` request, `←` response, `·` decision or note. */
  arrow: '→' | '←' | '·';
  /** The line itself (redacted). */
  text: string;
  /** Milliseconds since the trace started. */
  atMs: number;
}

/**
 * Ordered record of what the client did (requests, answers, decisions), for `--inspect`.
 * Every entry passes through the {@link Redactor} before it is stored or handed to `onEntry`,
 * so a trace never holds a credential.
 */
export class ClientTrace {
  /** Entries in order. */
  readonly entries: TraceEntry[] = [];
  private readonly started = Date.now();

  /**
   * @param redactor - Applied to every entry; secrets registered later are applied to later entries.
   * @param onEntry - Called for each entry as it is recorded (live printing).
   * @param bodyChars - How many characters of request/response bodies to record (0 = none).
   */
  constructor(
    readonly redactor: Redactor = new Redactor(),
    private readonly onEntry?: (entry: TraceEntry) => void,
    readonly bodyChars = 600,
  ) {}

  /** Records a line. */
  add(stage: TraceStage, arrow: TraceEntry['arrow'], text: string): void {
    const entry: TraceEntry = {
      stage,
      arrow,
      text: this.redactor.text(text),
      atMs: Date.now() - this.started,
    };
    this.entries.push(entry);
    this.onEntry?.(entry);
  }

  /** Records a decision or note. */
  note(stage: TraceStage, text: string): void {
    this.add(stage, '·', text);
  }

  /** A body excerpt for the trace: whitespace collapsed, cut at {@link ClientTrace.bodyChars}. */
  excerpt(body: string): string {
    const flat = body.replace(/\s+/g, ' ').trim();
    return flat.length > this.bodyChars
      ? `${flat.slice(0, this.bodyChars)}… (${flat.length} chars)`
      : flat;
  }
}

/** Formats an entry as one printable line: `[stage] → text`. */
export function formatTraceEntry(e: TraceEntry): string {
  return `[${e.stage}] ${e.arrow} ${e.text}`;
}
