import type { StreamResponse } from '@a2a-js/sdk';
import { isTerminal, partText, stateName, type ResultView } from '../result-view';

/** Where a stream is printed: the answer as it arrives, and status lines. */
export interface StreamSink {
  /** Text deltas, written as they come (no newline added). */
  text(chunk: string): void;
  /** One status line (tool progress, state change). */
  status(line: string): void;
}

/** An artifact that arrived whole (not streamed), listed after the answer. */
export interface WholeArtifact {
  name: string;
  text: string[];
}

/** What a stream ended with. */
export interface StreamOutcome {
  /** The last state seen, with ids; `text` is the streamed answer (joined) or the status text. */
  view: ResultView;
  /** Text of the last status message (the question of an `input-required` task). */
  statusText: string;
  /** The streamed answer, joined from its chunks. */
  answer: string;
  /** Artifacts that arrived in one piece (`changes.diff`, `checks`, ...). */
  artifacts: WholeArtifact[];
  /** True when a direct Message (no task) was the reply. */
  message: boolean;
}

type Json = Record<string, unknown>;
const texts = (parts: unknown): string[] =>
  (Array.isArray(parts) ? parts : []).map(partText).filter((t) => t !== '');

/**
 * Reads a SendStreamingMessage / SubscribeToTask stream, printing the answer's text deltas
 * joined as they arrive (an artifact sent with `append` or `lastChunk: false` is streamed; a later
 * update without `append` replaces it, and only what it adds is printed), one
 * status line per state change and per progress message (`working: running bash: npm test`),
 * and collecting artifacts that arrive whole for the end.
 * @see A2A specification §3.1.2 (SendStreamingMessage), §4.2 (stream events).
 */
export async function printStream(
  events: AsyncIterable<StreamResponse>,
  sink: StreamSink,
): Promise<StreamOutcome> {
  const o: StreamOutcome = {
    view: { kind: 'task', text: [] },
    statusText: '',
    answer: '',
    artifacts: [],
    message: false,
  };
  /** Text printed so far per streamed artifact id. */
  const printed = new Map<string, string>();
  for await (const ev of events) {
    if (!ev.payload) continue;
    const { $case, value } = ev.payload as unknown as { $case: string; value: Json };
    o.view.taskId ||= String(value.taskId ?? ($case === 'task' ? value.id : '') ?? '') || undefined;
    o.view.contextId ||= String(value.contextId ?? '') || undefined;
    if ($case === 'message') {
      o.message = true;
      o.view = { ...o.view, kind: 'message' };
      const t = texts(value.parts).join('\n');
      sink.text(t);
      o.answer += t;
    } else if ($case === 'task' || $case === 'statusUpdate') {
      const status = (value.status ?? {}) as Json;
      const state = stateName(status.state);
      const text = texts((status.message as Json | undefined)?.parts).join(' ');
      if ($case === 'task' && !o.view.state) sink.status(`task ${o.view.taskId ?? '?'} ${state}`);
      else if (state !== o.view.state || (text && !isTerminal(state)))
        sink.status(`${state}${text && state !== 'input-required' ? `: ${oneLine(text)}` : ''}`);
      o.view.state = state;
      if (text) o.statusText = text;
    } else if ($case === 'artifactUpdate') {
      const a = (value.artifact ?? {}) as Json;
      const id = String(a.artifactId ?? '');
      const t = texts(a.parts);
      if (value.append || value.lastChunk === false || printed.has(id)) {
        const before = printed.get(id) ?? '';
        // `append` adds to the artifact; without it the artifact is replaced (A2A §4.2.5), e.g.
        // by a follower on another instance that sends each stored state whole.
        const whole = value.append ? before + t.join('') : t.join('');
        printed.set(id, whole);
        if (whole.startsWith(before)) {
          sink.text(whole.slice(before.length));
          o.answer += whole.slice(before.length);
        } else {
          sink.text(`\n${whole}`);
          o.answer =
            (o.answer.endsWith(before)
              ? o.answer.slice(0, o.answer.length - before.length)
              : o.answer) + whole;
        }
      } else o.artifacts.push({ name: String(a.name || id || 'artifact'), text: t });
    }
  }
  o.view.text = o.answer ? [o.answer] : o.statusText ? [o.statusText] : [];
  return o;
}

function oneLine(t: string): string {
  const s = t.replace(/\s+/g, ' ').trim();
  return s.length > 160 ? `${s.slice(0, 160)}…` : s;
}
