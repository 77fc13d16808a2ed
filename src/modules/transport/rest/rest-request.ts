import type { FastifyRequest } from 'fastify';
import { ListTasksResponse, taskStateFromJSON } from '@a2a-js/sdk';
import type { ListTasksRequest } from '@a2a-js/sdk';
import { ContentTypeNotSupportedError, RequestMalformedError } from '@a2a-js/sdk/errors';
import { jsonDepth, tooDeepMessage } from '../../../common/http/json-depth';
import { A2A_MEDIA_TYPE, JSON_MEDIA_TYPE, mediaTypeOf } from '../transport.constants';
import { assertSendRequestShape } from '../request-shape';
import { rejectAmbiguousParts } from '../../skills/content-modes';

/**
 * The JSON object a REST request carries: empty body → `{}`.
 * @throws {ContentTypeNotSupportedError} Body with a media type other than JSON / A2A JSON.
 * @throws {RequestMalformedError} Body that is not JSON, not a JSON object, or nested deeper
 *   than `maxDepth` (HTTP 400, message naming the limit).
 * @see A2A specification §11.1 (media types), §11.6 (errors).
 */
export function readJsonBody(
  request: Pick<FastifyRequest, 'headers' | 'body'>,
  maxDepth = Number.MAX_SAFE_INTEGER,
): Record<string, unknown> {
  const media = mediaTypeOf(request.headers['content-type']);
  const raw = typeof request.body === 'string' ? request.body : '';
  if (media !== undefined && media !== JSON_MEDIA_TYPE && media !== A2A_MEDIA_TYPE) {
    throw new ContentTypeNotSupportedError(
      `Unsupported Content-Type "${media}"; expected ${JSON_MEDIA_TYPE} or ${A2A_MEDIA_TYPE}.`,
    );
  }
  if (raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new RequestMalformedError('Invalid JSON payload.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RequestMalformedError('The request body must be a JSON object.');
  }
  if (jsonDepth(raw, maxDepth) > maxDepth)
    throw new RequestMalformedError(tooDeepMessage(maxDepth));
  return value as Record<string, unknown>;
}

/**
 * A SendMessage body ({@link readJsonBody}) whose `message` has a decodable shape and no part
 * with two content members.
 * @throws {ContentTypeNotSupportedError} As {@link readJsonBody}.
 * @throws {RequestMalformedError} As {@link readJsonBody}; or a `message` the SDK cannot decode.
 * @see A2A specification §3.1.1 SendMessage, §11.3.
 */
export function sendMessageBody(
  request: Pick<FastifyRequest, 'headers' | 'body'>,
  maxDepth: number,
): Record<string, unknown> {
  const body = readJsonBody(request, maxDepth);
  assertSendRequestShape(body);
  rejectAmbiguousParts(body.message);
  return body;
}

/**
 * The media type a REST reply uses: the request body's media type when it sent one; else
 * `application/a2a+json` when `Accept` names it and not `application/json`; else
 * `application/json` (A2A 1.0 §11.1 names application/json for responses; §14.1 registers
 * application/a2a+json, so a client asking for it gets it).
 */
export function replyMediaType(request: Pick<FastifyRequest, 'headers'>): string {
  const media = mediaTypeOf(request.headers['content-type']);
  if (media === JSON_MEDIA_TYPE || media === A2A_MEDIA_TYPE) return media;
  const accept = String(request.headers.accept ?? '').toLowerCase();
  if (accept.includes(A2A_MEDIA_TYPE) && !accept.includes(JSON_MEDIA_TYPE)) return A2A_MEDIA_TYPE;
  return JSON_MEDIA_TYPE;
}

/**
 * Parses a non-negative integer query value.
 * @throws {RequestMalformedError} Not an integer, or out of [min, max].
 */
export function integerParam(
  name: string,
  value: unknown,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const s = String(value).trim();
  const n = Number(s);
  if (!/^-?\d+$/.test(s) || !Number.isSafeInteger(n))
    throw new RequestMalformedError(`${name} must be an integer`);
  if (n < min || n > max)
    throw new RequestMalformedError(`${name} must be between ${min} and ${max}`);
  return n;
}

/**
 * ListTasks query (`GET /tasks`) → SDK `ListTasksRequest`, with the SDK REST router's rules:
 * `pageSize` 1-100, `historyLength` ≥ 0, `status` by name or number, `includeArtifacts=true`;
 * a repeated parameter is invalid (not silently dropped: `status=A&status=B` filtered nothing).
 * @see A2A specification §3.1.4 ListTasks, §11.3.
 */
export function listTasksRequest(query: Record<string, unknown>): ListTasksRequest {
  const str = (k: string) => {
    if (Array.isArray(query[k])) throw new RequestMalformedError(`${k} must be given at most once`);
    return typeof query[k] === 'string' ? (query[k] as string) : '';
  };
  const status = str('status');
  const has = (k: string) => str(k) !== '';
  return {
    tenant: '',
    contextId: str('contextId'),
    status: status ? taskState(status) : 0,
    pageSize: has('pageSize') ? integerParam('pageSize', str('pageSize'), 1, 100) : undefined,
    pageToken: str('pageToken'),
    historyLength: has('historyLength')
      ? integerParam('historyLength', str('historyLength'), 0)
      : undefined,
    statusTimestampAfter: has('statusTimestampAfter') ? str('statusTimestampAfter') : undefined,
    includeArtifacts: str('includeArtifacts') === 'true',
  } as ListTasksRequest;
}

function taskState(value: string): number {
  try {
    return taskStateFromJSON(Number.isNaN(Number(value)) ? value : Number(value));
  } catch {
    throw new RequestMalformedError(`status '${value}' is not a TaskState`);
  }
}

/** ListTasksResponse → proto-JSON with every field present (`artifacts: []` when asked for). */
export function listTasksJson(
  response: ListTasksResponse,
  includeArtifacts: boolean,
): Record<string, unknown> {
  const json = ListTasksResponse.toJSON(response) as Record<string, unknown>;
  const tasks = (json.tasks as Record<string, unknown>[] | undefined) ?? [];
  return {
    ...json,
    tasks: includeArtifacts ? tasks.map((t) => ({ artifacts: [], ...t })) : tasks,
    nextPageToken: json.nextPageToken ?? '',
    pageSize: json.pageSize ?? 0,
    totalSize: json.totalSize ?? 0,
  };
}
