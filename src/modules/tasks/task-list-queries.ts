import { TaskState, taskStateToJSON } from '@a2a-js/sdk';
import type { ListTasksRequest } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { TaskPayloadRow, TaskScope } from './task.entity';

/** Page size when a list request names none (the SDK's `DEFAULT_PAGE_SIZE`). */
export const DEFAULT_LIST_PAGE_SIZE = 50;

/** Largest page a list returns (the SDK's handler refuses `pageSize` above 100 anyway). */
export const DEFAULT_MAX_PAGE_SIZE = 100;

/** Stored JSON bytes a list page may carry before it is cut short (a next page token follows). */
export const DEFAULT_MAX_LIST_REPLY_BYTES = 1_048_576;

/** Columns every listed or loaded row carries. */
export const PAYLOAD_COLUMNS = '"id", "context_id" AS "contextId", "status", "metadata"';

/** A SQL string with its positional parameters. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/** A listed row: payload columns and its status timestamp (the cursor key). */
export type ListedRow = TaskPayloadRow & { timestampMs: number };

const COUNT_ALL_SQL = 'SELECT COUNT(*) AS "total" FROM "a2a_tasks"';

/** Opaque list cursor: base64url of `<status timestamp ms>|<task id>` of a page's last row. */
export function encodePageToken(timestampMs: number, id: string): string {
  return Buffer.from(`${timestampMs}|${id}`, 'utf8').toString('base64url');
}

/** A decoded cursor: integer epoch ms (negative before 1970), `|`, then the task id. */
const CURSOR_PATTERN = /^(-?(?:0|[1-9]\d{0,15}))\|([\s\S]*)$/;

/**
 * Reads a cursor made by {@link encodePageToken}.
 * @throws {RequestMalformedError} Not base64url, or not `<ms>|<id>` once decoded.
 */
export function decodePageToken(token: string): { timestampMs: number; id: string } {
  const match = /^[A-Za-z0-9_-]+$/.test(token)
    ? CURSOR_PATTERN.exec(Buffer.from(token, 'base64url').toString('utf8'))
    : null;
  const timestampMs = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(timestampMs)) {
    throw new RequestMalformedError('Invalid pageToken: not a cursor returned by ListTasks.');
  }
  return { timestampMs, id: match[2] };
}

/** A list request, validated: what both stores (SQL and memory) select and page by. */
export interface ListSelection {
  /** The request's `pageSize` (default {@link DEFAULT_LIST_PAGE_SIZE}), capped at the store's max. */
  pageSize: number;
  /** Only this context, when set. */
  contextId?: string;
  /** Only this state (proto enum name), when set. */
  state?: string;
  /** Only status timestamps after this, epoch ms, when set. */
  afterMs?: number;
  /** Rows strictly before this (timestamp ms, id) pair in list order, when set. */
  cursor?: { timestampMs: number; id: string };
  /** `includeArtifacts`. */
  withArtifacts: boolean;
  /** History is listed (`historyLength` absent or positive). */
  withHistory: boolean;
}

/**
 * Validates a ListTasks request into a {@link ListSelection}.
 * @throws {RequestMalformedError} Malformed `pageToken`, `statusTimestampAfter` or `pageSize`.
 */
export function listSelection(
  params: ListTasksRequest,
  maxPageSize = DEFAULT_MAX_PAGE_SIZE,
): ListSelection {
  const requested = params.pageSize ?? DEFAULT_LIST_PAGE_SIZE;
  if (!Number.isSafeInteger(requested) || requested < 0) {
    throw new RequestMalformedError('pageSize must be a non-negative integer');
  }
  const selection: ListSelection = {
    pageSize: Math.min(requested, maxPageSize),
    withArtifacts: Boolean(params.includeArtifacts),
    withHistory: params.historyLength === undefined || params.historyLength > 0,
  };
  if (params.contextId) selection.contextId = params.contextId;
  if (params.status !== undefined && params.status !== TaskState.TASK_STATE_UNSPECIFIED) {
    selection.state = taskStateToJSON(params.status);
  }
  if (params.statusTimestampAfter) {
    const afterMs = Date.parse(params.statusTimestampAfter);
    if (Number.isNaN(afterMs)) throw new RequestMalformedError('Invalid statusTimestampAfter');
    selection.afterMs = afterMs;
  }
  if (params.pageToken) selection.cursor = decodePageToken(params.pageToken);
  return selection;
}

/** The caller's scope plus the request's filters; shared by the count and the page. */
function listFilter(scope: TaskScope, selection: ListSelection): SqlStatement {
  const where = ['"tenant" = ?', '"owner" = ?'];
  const values: unknown[] = [scope.tenant, scope.owner];
  if (selection.contextId !== undefined) {
    where.push('"context_id" = ?');
    values.push(selection.contextId);
  }
  if (selection.state !== undefined) {
    where.push('"status_state" = ?');
    values.push(selection.state);
  }
  if (selection.afterMs !== undefined) {
    where.push('"status_timestamp_ms" > ?');
    values.push(selection.afterMs);
  }
  return { sql: where.join(' AND '), params: values };
}

/**
 * The leading rows whose stored JSON (status, artifacts, history, metadata) fits in `maxBytes`
 * (always at least the first row): a list page ends before the task that would exceed it.
 */
export function withinBytes<R extends TaskPayloadRow>(rows: R[], maxBytes: number): R[] {
  let bytes = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    for (const text of [r.status, r.artifacts, r.history, r.metadata]) {
      if (text) bytes += Buffer.byteLength(text, 'utf8');
    }
    if (bytes > maxBytes && i > 0) return rows.slice(0, i);
  }
  return rows;
}

/**
 * The count and page statements of a list request; both are ranges of one list index.
 * `pageSize` is the request's, capped at `maxPageSize`.
 * The page seeks past the cursor with `ts <= ?` (an index bound; the plain
 * `ts < ? OR (ts = ? AND id < ?)` makes SQLite walk from the top) and breaks ties with
 * `ts < ? OR id < ?`: together `(ts, id) < (cursor ts, cursor id)`.
 * @throws {RequestMalformedError} Malformed `pageToken`, `statusTimestampAfter` or `pageSize`.
 */
export function listQueries(
  scope: TaskScope,
  params: ListTasksRequest,
  maxPageSize = DEFAULT_MAX_PAGE_SIZE,
): { count: SqlStatement; page: SqlStatement; pageSize: number } {
  const selection = listSelection(params, maxPageSize);
  const { pageSize, cursor } = selection;
  const filter = listFilter(scope, selection);
  const where = [filter.sql];
  const values = [...filter.params];
  if (cursor) {
    where.push('"status_timestamp_ms" <= ? AND ("status_timestamp_ms" < ? OR "id" < ?)');
    values.push(cursor.timestampMs, cursor.timestampMs, cursor.id);
  }
  const columns = [PAYLOAD_COLUMNS, '"status_timestamp_ms" AS "timestampMs"'];
  if (selection.withArtifacts) columns.push('"artifacts"');
  if (selection.withHistory) columns.push('"history"');
  const page =
    `SELECT ${columns.join(', ')} FROM "a2a_tasks" WHERE ${where.join(' AND ')} ` +
    'ORDER BY "status_timestamp_ms" DESC, "id" DESC LIMIT ?';
  return {
    count: { sql: `${COUNT_ALL_SQL} WHERE ${filter.sql}`, params: filter.params },
    page: { sql: page, params: [...values, pageSize + 1] },
    pageSize,
  };
}
