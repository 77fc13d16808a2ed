import type { StreamResponse } from '@a2a-js/sdk';
import type { A2AClient } from '../client/a2a-client';
import { isTerminal, viewResult } from '../client/result-view';

/** Where a reply stands while it arrives and when it ends. */
export interface ReplyProgress {
  taskId?: string;
  contextId?: string;
  /** Normalised task state (`working`, `input-required`, `completed`, …). */
  state?: string;
  /** The reply so far: artifact chunks joined into one text (or the status message). */
  text: string;
  /** The latest status message while working (tool progress), one line. */
  activity?: string;
  /** True when the stream failed before any event and one blocking send answered instead. */
  fellBack?: boolean;
}

/** Conversation thread a send continues. */
export interface ReplyThread {
  contextId?: string;
  taskId?: string;
}

type ArtifactUpdate = { artifact?: { artifactId?: string }; append?: boolean };

/**
 * Joins streamed chunks into one growing text: artifact updates with `append` extend their
 * artifact, others replace it; artifacts are joined in first-seen order; a status message is the
 * text only while no artifact has arrived (the question of an `input-required` task is shown too).
 * @see A2A specification §3.2.4 (TaskArtifactUpdateEvent.append), §4.1.6.
 */
export class ReplyCoalescer {
  private readonly artifacts = new Map<string, string>();
  private statusText = '';
  readonly progress: ReplyProgress = { text: '' };

  /** Applies one stream event (SDK `StreamResponse` or any shape `viewResult` reads). */
  add(event: StreamResponse | unknown): ReplyProgress {
    const v = viewResult(event);
    const p = this.progress;
    p.taskId = v.taskId ?? p.taskId;
    p.contextId = v.contextId ?? p.contextId;
    if (v.state && v.state !== 'unknown') p.state = v.state;
    const chunk = v.text.join('\n');
    if (v.kind === 'artifact') {
      const raw = artifactUpdateOf(event);
      const id = raw?.artifact?.artifactId ?? '';
      const before = this.artifacts.get(id) ?? '';
      this.artifacts.set(id, raw?.append ? before + chunk : chunk);
    } else if (v.kind === 'task' && v.text.length) {
      this.statusText = chunk;
    } else if (v.kind === 'status' || v.kind === 'message') {
      if (chunk) this.statusText = chunk;
      p.activity = v.state === 'working' && chunk ? chunk.split('\n')[0] : undefined;
    }
    const joined = [...this.artifacts.values()].filter(Boolean).join('\n');
    const waiting = p.state === 'input-required' || p.state === 'auth-required';
    p.text =
      waiting && this.statusText
        ? [joined, this.statusText].filter(Boolean).join('\n')
        : joined || this.statusText;
    return p;
  }
}

function artifactUpdateOf(event: unknown): ArtifactUpdate | undefined {
  const e = event as { payload?: { $case?: string; value?: unknown }; artifactUpdate?: unknown };
  if (e?.payload?.$case === 'artifactUpdate') return e.payload.value as ArtifactUpdate;
  return (e?.artifactUpdate ?? event) as ArtifactUpdate;
}

/** True once a state means the agent stopped working on this turn. */
export function turnEnded(state: string | undefined): boolean {
  return Boolean(
    state && (isTerminal(state) || state === 'input-required' || state === 'auth-required'),
  );
}

/**
 * Sends `text` and reports the reply as it grows. Streams when `streaming` (the card advertises
 * it); when the stream fails before its first event, sends once instead (`returnImmediately`,
 * then GetTask every 700 ms until the turn ends, so the task id is known at once). Stops
 * early, without error, when `signal` aborts (the caller cancels the task).
 * Adapter for the client library (stream coalescing is not in `A2AClient` yet).
 * @throws The client's errors (`A2AClientError`, SDK A2A errors) when the send fails.
 */
export async function sendReply(
  client: A2AClient,
  text: string,
  thread: ReplyThread,
  o: { streaming: boolean; signal: AbortSignal; onProgress: (p: ReplyProgress) => void },
): Promise<ReplyProgress> {
  const c = new ReplyCoalescer();
  if (o.streaming) {
    let events = 0;
    try {
      const stream = client.stream(text, thread);
      for await (const event of stream) {
        events++;
        o.onProgress({ ...c.add(event) });
        if (o.signal.aborted) break;
      }
      return c.progress;
    } catch (err) {
      if (events > 0 || o.signal.aborted) throw err;
    }
    c.progress.fellBack = true;
  }
  o.onProgress({ ...c.add(await client.send(text, { ...thread, blocking: false })) });
  while (!o.signal.aborted && c.progress.taskId && !turnEnded(c.progress.state)) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (!o.signal.aborted) o.onProgress({ ...c.add(await client.getTask(c.progress.taskId)) });
  }
  return c.progress;
}

/** GetTask interval while a non-streamed task works, ms. */
const POLL_MS = 700;
