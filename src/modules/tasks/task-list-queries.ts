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

/** The caller's scope plus the request's filters; shared by the count and the page. */
function listFilter(scope: TaskScope, params: ListTasksRequest): SqlStatement {
  const where = ['"tenant" = ?', '"owner" = ?'];
  const values: unknown[] = [scope.tenant, scope.owner];
  if (params.contextId) {
    where.push('"context_id" = ?');
    values.push(params.contextId);
  }
  if (params.status !== undefined && params.status !== TaskState.TASK_STATE_UNSPECIFIED) {
    where.push('"status_state" = ?');
    values.push(taskStateToJSON(params.status));
  }
  if (params.statusTimestampAfter) {
    const afterMs = Date.parse(params.statusTimestampAfter);
    if (Number.isNaN(afterMs)) throw new RequestMalformedError('Invalid statusTimestampAfter');
    where.push('"status_timestamp_ms" > ?');
    values.push(afterMs);
  }
  return { sql: where.join(' AND '), params: values };
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
  const requested = params.pageSize ?? DEFAULT_LIST_PAGE_SIZE;
  if (!Number.isSafeInteger(requested) || requested < 0) {
    throw new RequestMalformedError('pageSize must be a non-negative integer');
  }
  const pageSize = Math.min(requested, maxPageSize);
  const filter = listFilter(scope, params);
  const where = [filter.sql];
  const values = [...filter.params];
  if (params.pageToken) {
    const cursor = decodePageToken(params.pageToken);
    where.push('"status_timestamp_ms" <= ? AND ("status_timestamp_ms" < ? OR "id" < ?)');
    values.push(cursor.timestampMs, cursor.timestampMs, cursor.id);
  }
  const columns = [PAYLOAD_COLUMNS, '"status_timestamp_ms" AS "timestampMs"'];
  if (params.includeArtifacts) columns.push('"artifacts"');
  if (params.historyLength === undefined || params.historyLength > 0) columns.push('"history"');
  const page =
    `SELECT ${columns.join(', ')} FROM "a2a_tasks" WHERE ${where.join(' AND ')} ` +
    'ORDER BY "status_timestamp_ms" DESC, "id" DESC LIMIT ?';
  return {
    count: { sql: `${COUNT_ALL_SQL} WHERE ${filter.sql}`, params: filter.params },
    page: { sql: page, params: [...values, pageSize + 1] },
    pageSize,
  };
}
