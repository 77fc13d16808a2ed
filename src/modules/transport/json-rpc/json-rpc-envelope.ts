import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import type { JsonRpcErrorObject } from '../../../common/errors/a2a-error-render';
import { jsonDepth, tooDeepMessage } from '../../../common/http/json-depth';

/** A JSON-RPC 2.0 request id (JSON-RPC 2.0 §4). */
export type JsonRpcId = string | number | null;

/** A parsed, structurally valid JSON-RPC 2.0 request object. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  method: string;
  id?: JsonRpcId;
  params?: unknown;
}

/** Outcome of reading a request body: a valid request, or the error envelope to answer with. */
export type EnvelopeResult =
  { ok: true; request: JsonRpcRequest } | { ok: false; id: JsonRpcId; error: JsonRpcErrorObject };

/**
 * Parses and checks the JSON-RPC 2.0 envelope before it reaches the SDK, so the two
 * protocol-level failures get their own codes: -32700 (not JSON) and -32600 (not a
 * Request object: not an object, a batch, wrong `jsonrpc`, missing `method`, bad `id`).
 * A body nested deeper than `maxDepth` gets -32602 naming the limit (with the request's id):
 * deeper documents would overflow the stack in recursive decoders further on.
 * @param body - Raw request body (string) as read by the raw body parser.
 * @param maxDepth - Deepest nesting of objects/arrays accepted (SUPERQODE_A2A_MAX_JSON_DEPTH).
 * @see JSON-RPC 2.0 §4, §5.1; A2A specification §9.
 */
export function readEnvelope(body: unknown, maxDepth = Number.MAX_SAFE_INTEGER): EnvelopeResult {
  let value: unknown;
  try {
    value = typeof body === 'string' ? JSON.parse(body) : body;
  } catch {
    return failure(null, A2A_ERROR_CODE.PARSE_ERROR, 'Invalid JSON payload.');
  }
  if (Array.isArray(value)) {
    return failure(null, A2A_ERROR_CODE.INVALID_REQUEST, 'Batch requests are not supported.');
  }
  if (typeof value !== 'object' || value === null) {
    return failure(
      null,
      A2A_ERROR_CODE.INVALID_REQUEST,
      'The request must be a JSON-RPC 2.0 object.',
    );
  }
  const req = value as Record<string, unknown>;
  const id = req.id;
  const idOk = id === undefined || id === null || typeof id === 'string' || Number.isInteger(id);
  const safeId: JsonRpcId = idOk ? ((id ?? null) as JsonRpcId) : null;
  if (!idOk)
    return failure(
      null,
      A2A_ERROR_CODE.INVALID_REQUEST,
      'id must be a string, an integer or null.',
    );
  if (req.jsonrpc !== '2.0')
    return failure(safeId, A2A_ERROR_CODE.INVALID_REQUEST, 'jsonrpc must be "2.0".');
  if (typeof req.method !== 'string' || req.method === '') {
    return failure(safeId, A2A_ERROR_CODE.INVALID_REQUEST, 'method must be a non-empty string.');
  }
  if (
    req.params !== undefined &&
    (typeof req.params !== 'object' || req.params === null || Array.isArray(req.params))
  ) {
    return failure(safeId, A2A_ERROR_CODE.INVALID_PARAMS, 'params must be an object.');
  }
  if (typeof body === 'string' && jsonDepth(body, maxDepth) > maxDepth) {
    return failure(safeId, A2A_ERROR_CODE.INVALID_PARAMS, tooDeepMessage(maxDepth));
  }
  return { ok: true, request: req as unknown as JsonRpcRequest };
}

function failure(id: JsonRpcId, code: number, message: string): EnvelopeResult {
  return { ok: false, id, error: { code, message } };
}

/**
 * The id of a request body already read (for envelopes answered before the controller: 401, 429):
 * the `id` member when the body parses as a JSON object with a valid id, else null. A body over
 * the size limit is never read (Fastify refuses it from `Content-Length` or mid-stream), so a 413
 * answers `id: null`.
 * @see JSON-RPC 2.0 §5: `id` is null only when it could not be determined.
 */
export function readableRequestId(body: unknown): JsonRpcId {
  let value: unknown = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || Number.isInteger(id) ? (id as JsonRpcId) : null;
}
