import { taskStateToJSON } from '@a2a-js/sdk';

/** A task or message reduced to what a person reads: ids, state and text. */
export interface ResultView {
  kind: 'task' | 'message' | 'status' | 'artifact';
  taskId?: string;
  contextId?: string;
  /** Normalised state, lower case with hyphens (`completed`, `input-required`); tasks and status updates. */
  state?: string;
  /** Text of the status message, artifacts (or message parts); data parts as compact JSON. */
  text: string[];
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/**
 * One state name for every spelling: the SDK enum number (3), the v1.0 JSON name
 * (`TASK_STATE_COMPLETED`) and the v0.3 name (`completed`, `input-required`) all become
 * `completed` / `input-required`. Unknown input gives `unknown`.
 * @see A2A specification §4.1.3 (TaskState); A2A 0.3 §6.3.
 */
export function stateName(state: unknown): string {
  let name =
    typeof state === 'number' ? taskStateToJSON(state) : typeof state === 'string' ? state : '';
  name = name
    .replace(/^TASK_STATE_/i, '')
    .toLowerCase()
    .replace(/_/g, '-');
  return name && name !== 'unspecified' && name !== 'unrecognized' ? name : 'unknown';
}

/** Terminal states (`completed`, `failed`, `canceled`, `rejected`). */
export function isTerminal(state: string): boolean {
  return ['completed', 'failed', 'canceled', 'cancelled', 'rejected'].includes(state);
}

/**
 * Printable text of one part, whatever its shape: SDK (`content: { $case, value }`), v1.0 JSON
 * (`{ text }`, `{ data }`, `{ url }`, `{ raw }`) or v0.3 (`{ kind: 'text', text }`,
 * `{ kind: 'data', data }`, `{ kind: 'file', file }`).
 */
export function partText(part: unknown): string {
  const p = obj(part) ?? {};
  const content = obj(p.content);
  const kase = content
    ? String(content.$case)
    : String(
        p.kind ?? Object.keys(p).find((k) => ['text', 'data', 'url', 'raw', 'file'].includes(k)),
      );
  const value = content ? content.value : p[kase];
  switch (kase) {
    case 'text':
      return typeof value === 'string' ? value : '';
    case 'data':
      return dataText(value);
    case 'url':
      return `[file ${String(value)}]`;
    case 'raw':
      return `[file ${String(p.filename || p.mediaType || 'bytes')}]`;
    case 'file': {
      const f = obj(value) ?? {};
      return `[file ${String(f.uri ?? f.name ?? 'bytes')}]`;
    }
    default:
      return '';
  }
}

/** Longest data part shown inline, in characters of its JSON; a longer one is summarised. */
export const DATA_INLINE_CHARS = 200;

/** A data part as one line: its JSON when short, else its size and top-level keys. */
function dataText(value: unknown): string {
  const json = JSON.stringify(value ?? null);
  if (json.length <= DATA_INLINE_CHARS) return `[data] ${json}`;
  const keys = obj(value) ? Object.keys(obj(value)!).slice(0, 8).join(', ') : '';
  return `[data] ${json.length} bytes of JSON${keys ? ` (${keys})` : ''}; --json shows it whole`;
}

function partsText(parts: unknown): string[] {
  return (Array.isArray(parts) ? parts : []).map(partText).filter((t) => t !== '');
}

/** Text of a task: its artifacts, or its status message when it has none. */
function taskText(t: Json): string[] {
  const artifacts = (Array.isArray(t.artifacts) ? t.artifacts : []).flatMap((a: Json) =>
    partsText(obj(a)?.parts),
  );
  return artifacts.length ? artifacts : partsText(obj(obj(t.status)?.message)?.parts);
}

/**
 * A person's view of a send result or a stream event, from any shape: SDK objects, v1.0 JSON
 * (`{ task }`, `{ message }`, `{ statusUpdate }`, `{ artifactUpdate }`), v0.3 JSON (`kind`), or
 * an SDK `StreamResponse` (`payload: { $case, value }`).
 */
export function viewResult(result: unknown): ResultView {
  let r = obj(result) ?? {};
  const payload = obj(r.payload);
  let kase = payload ? String(payload.$case) : undefined;
  if (payload) r = obj(payload.value) ?? {};
  for (const k of ['task', 'message', 'statusUpdate', 'artifactUpdate']) {
    if (!kase && obj(r[k])) [kase, r] = [k, obj(r[k]) ?? {}];
  }
  kase ??= String(
    r.kind ?? (r.status ? 'task' : r.artifact ? 'artifactUpdate' : r.parts ? 'message' : 'task'),
  );
  if (kase === 'status-update') kase = 'statusUpdate';
  if (kase === 'artifact-update') kase = 'artifactUpdate';
  const ids = {
    taskId: String(r.taskId ?? r.id ?? '') || undefined,
    contextId: String(r.contextId ?? '') || undefined,
  };
  if (kase === 'message')
    return {
      kind: 'message',
      ...ids,
      taskId: String(r.taskId ?? '') || undefined,
      text: partsText(r.parts),
    };
  if (kase === 'statusUpdate') {
    const st = obj(r.status);
    return {
      kind: 'status',
      ...ids,
      state: stateName(st?.state),
      text: partsText(obj(st?.message)?.parts),
    };
  }
  if (kase === 'artifactUpdate')
    return { kind: 'artifact', ...ids, text: partsText(obj(r.artifact)?.parts) };
  return { kind: 'task', ...ids, state: stateName(obj(r.status)?.state), text: taskText(r) };
}
