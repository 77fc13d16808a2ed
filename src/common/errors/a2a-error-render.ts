import { HttpException, Logger } from '@nestjs/common';
import {
  A2AError,
  A2A_ERROR_CODE,
  restStatusFor,
  toJsonRpcError,
  toRestErrorBody,
} from '@a2a-js/sdk/errors';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { toA2aError } from './error-map';

/** JSON-RPC 2.0 error object (`error` member of a response envelope). */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** An error rendered for one binding: HTTP status plus body. */
export interface RenderedError<B> {
  status: number;
  body: B;
  /** Extra response headers (e.g. `Retry-After`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
}

/**
 * A rejection raised below the A2A layer that keeps its HTTP meaning on every binding:
 * Fastify body errors (`statusCode` + `FST_ERR_*` code) and Nest `HttpException`s from
 * guards and the throttler (401/403/429).
 */
interface TransportRejection {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

const GENERIC_INTERNAL = 'Internal error.';
const logger = new Logger('A2aErrors');

function transportRejection(err: unknown): TransportRejection | undefined {
  if (err instanceof HttpException) {
    const res = err.getResponse();
    const message =
      typeof res === 'string' ? res : String((res as { message?: unknown }).message ?? err.message);
    const headers = (err as { headers?: Record<string, string> }).headers;
    return { status: err.getStatus(), message, headers };
  }
  const e = err as { statusCode?: unknown; code?: unknown; message?: unknown };
  // The client went away while its body was read (Node's `aborted`): nothing to log, no one to answer.
  if (e?.code === 'ECONNRESET')
    return { status: 400, message: 'The client closed the connection.' };
  if (
    typeof e?.statusCode === 'number' &&
    typeof e.code === 'string' &&
    e.code.startsWith('FST_')
  ) {
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return { status: 413, message: 'Request body exceeds the configured size limit.' };
    }
    if (e.statusCode >= 400 && e.statusCode < 500)
      return { status: e.statusCode, message: String(e.message) };
  }
  return undefined;
}

/**
 * A2A errors pass through, and errors of ours become their A2A error ({@link toA2aError}, the
 * error map); anything else is logged once with its stack and becomes generic.
 */
function semantic(err: unknown): A2AError | Error {
  const mapped = toA2aError(err);
  if (mapped) return mapped;
  logger.error(`Unexpected failure: ${(err as Error)?.message}`, (err as Error)?.stack);
  return new Error(GENERIC_INTERNAL);
}

/**
 * JSON-RPC codes for transport rejections, in the implementation-defined server range
 * (-32000..-32099, JSON-RPC 2.0 §5.1) outside A2A's own -32001..-32009. Documented in the README.
 */
export const TRANSPORT_JSON_RPC_CODES: Readonly<Record<number, number>> = {
  401: -32040, // Unauthenticated
  403: -32043, // Forbidden
  429: -32029, // Too many requests
};

/**
 * Renders any error for the JSON-RPC binding. A2A errors: HTTP 200 with the SDK's code
 * (`toJsonRpcError`, or the 0.3 mapper); internal errors: HTTP 500, -32603, no details;
 * transport rejections keep their HTTP status with an `-32600` envelope.
 * @see A2A specification §9.4 JSON-RPC error codes; docs/style.md §5.
 */
export function renderJsonRpcError(
  err: unknown,
  legacy: boolean,
): RenderedError<JsonRpcErrorObject> {
  const rejection = transportRejection(err);
  if (rejection) {
    return {
      status: rejection.status,
      body: {
        code: TRANSPORT_JSON_RPC_CODES[rejection.status] ?? A2A_ERROR_CODE.INVALID_REQUEST,
        message: rejection.message,
      },
      headers: rejection.headers,
    };
  }
  const e = semantic(err);
  const body = (
    legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(e) : toJsonRpcError(e)
  ) as JsonRpcErrorObject;
  return { status: body.code === A2A_ERROR_CODE.INTERNAL_ERROR ? 500 : 200, body };
}

/**
 * Renders any error for the HTTP+JSON binding as a `google.rpc.Status` body.
 * Status from the SDK's `restStatusFor`, which follows A2A 1.0.1 §5.4 (TaskNotCancelable and
 * ContentTypeNotSupported → 400; 1.0.0 had 409 and 415).
 */
export function renderRestError(err: unknown): RenderedError<unknown> {
  const rejection = transportRejection(err);
  if (rejection) {
    const body = toRestErrorBody(new Error(rejection.message), rejection.status) as {
      error: { status: string };
    };
    body.error.status = GOOGLE_STATUS[rejection.status] ?? body.error.status;
    return { status: rejection.status, body, headers: rejection.headers };
  }
  const e = semantic(err);
  const status = restStatusFor(e);
  return { status, body: toRestErrorBody(e, status) };
}

/** google.rpc.Code names for the transport statuses we emit (google/rpc/code.proto HTTP mapping). */
const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  408: 'DEADLINE_EXCEEDED',
  413: 'INVALID_ARGUMENT',
  414: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  421: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  431: 'INVALID_ARGUMENT',
  503: 'UNAVAILABLE',
};

/**
 * For exception filters: true when the reply already started (an SSE stream, a hijacked reply),
 * in which case nothing more can be rendered; the connection is ended if still open.
 */
export function endIfStarted(reply: {
  sent: boolean;
  raw: { headersSent: boolean; writableEnded: boolean; end(): void };
}): boolean {
  if (!reply.sent && !reply.raw.headersSent) return false;
  if (!reply.raw.writableEnded) reply.raw.end();
  return true;
}
