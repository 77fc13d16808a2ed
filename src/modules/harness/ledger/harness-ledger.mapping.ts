import type { HarnessEvent, HarnessRunStatus } from '../protocol/harness-events';
import { isHarnessEventType } from '../protocol/harness-events';
import type { HarnessRunRecord, HarnessSessionRecord } from '../protocol/harness-records';
import { PROMPT_PREVIEW_CHARS } from '../harness.constants';
import {
  HarnessEventEntity,
  HarnessRunEntity,
  HarnessSessionEntity,
} from './harness-ledger.entities';

/** Parses a JSON column; corrupt text becomes `fallback` rather than failing a whole listing. */
export function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** The prompt's first {@link PROMPT_PREVIEW_CHARS} characters (code points, not bytes). */
export function promptPreview(prompt: string): string {
  const chars = Array.from(prompt);
  return chars.length <= PROMPT_PREVIEW_CHARS
    ? prompt
    : chars.slice(0, PROMPT_PREVIEW_CHARS).join('');
}

/** Session row → protocol record. */
export function toSessionRecord(row: HarnessSessionEntity): HarnessSessionRecord {
  return {
    id: row.id,
    created_at: row.createdAt,
    spec_name: row.specName,
    working_dir: row.workingDir,
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
  };
}

/** Run row → protocol record. */
export function toRunRecord(row: HarnessRunEntity): HarnessRunRecord {
  return {
    id: row.id,
    session_id: row.sessionId,
    status: row.status as HarnessRunStatus,
    provider: row.provider,
    model: row.model,
    started_at: row.startedAt,
    ended_at: row.endedAt,
    prompt_preview: row.promptPreview,
    error: row.error,
  };
}

/** Event row (+ its run's session) → event; null for a row of an unknown type. */
export function toEvent(row: HarnessEventEntity, sessionId: string): HarnessEvent | null {
  if (!isHarnessEventType(row.type)) return null;
  return {
    event_id: row.eventId,
    session_id: sessionId,
    run_id: row.runId,
    sequence: row.sequence,
    timestamp: row.timestamp,
    type: row.type,
    data: parseJson(row.data, {}),
  } as HarnessEvent;
}

/** Event → row. */
export function toEventRow(event: HarnessEvent): HarnessEventEntity {
  return Object.assign(new HarnessEventEntity(), {
    runId: event.run_id,
    sequence: event.sequence,
    eventId: event.event_id,
    type: event.type,
    data: JSON.stringify(event.data),
    timestamp: event.timestamp,
  });
}

/** The run row a `run.started` event creates. */
export function runRowFrom(
  event: Extract<HarnessEvent, { type: 'run.started' }>,
): HarnessRunEntity {
  return Object.assign(new HarnessRunEntity(), {
    id: event.run_id,
    sessionId: event.session_id,
    status: 'running',
    provider: event.data.provider,
    model: event.data.model,
    startedAt: event.timestamp,
    endedAt: null,
    promptPreview: promptPreview(event.data.prompt),
    error: null,
  });
}

/**
 * The run columns an event changes: terminal events end the run with their status, an approval
 * decision puts a paused run back to running; other events change nothing (null).
 */
export function runUpdateFor(event: HarnessEvent): Partial<HarnessRunEntity> | null {
  switch (event.type) {
    case 'run.completed':
      return { status: event.data.status, endedAt: event.timestamp };
    case 'run.failed':
      return { status: 'failed', endedAt: event.timestamp, error: event.data.message };
    case 'run.cancelled':
      return { status: 'cancelled', endedAt: event.timestamp };
    case 'approval.resolved':
      return { status: 'running', endedAt: null };
    default:
      return null;
  }
}
