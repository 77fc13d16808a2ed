import { HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { renderJsonRpcError, renderRestError } from '../../../common/errors/a2a-error-render';
import { replyMediaType } from '../rest/rest-request';

/** The binding a request belongs to, which decides the error shape of its reply. */
export type Binding = 'JSONRPC' | 'HTTP+JSON';

/** `POST /` is the JSON-RPC binding (1.0 and 0.3); every other route answers like HTTP+JSON. */
export function bindingOf(method: string | undefined, url: string | undefined): Binding {
  return method === 'POST' && (url ?? '').split('?', 1)[0] === '/' ? 'JSONRPC' : 'HTTP+JSON';
}

/**
 * Answers `err` in the request's binding shape: a JSON-RPC error envelope (`id: null`) for
 * `POST /`, a `google.rpc.Status` body in the request's media type for the rest. Used by the
 * global exception filter, the request guards (before any handler) and Fastify's
 * `frameworkErrors` (414 over the parameter limit, malformed URLs).
 * @param legacy - Render JSON-RPC errors with the A2A 0.3 mapper.
 */
export function sendBindingError(
  request: FastifyRequest,
  reply: FastifyReply,
  err: unknown,
  legacy = false,
): void {
  if (bindingOf(request.method, request.url) === 'JSONRPC') {
    const r = renderJsonRpcError(err, legacy);
    reply
      .code(r.status)
      .headers(r.headers ?? {})
      .send({ jsonrpc: '2.0', id: null, error: r.body });
    return;
  }
  const r = renderRestError(err);
  reply
    .code(r.status)
    .headers(r.headers ?? {})
    .header('content-type', replyMediaType(request))
    .send(JSON.stringify(r.body));
}

/**
 * A complete HTTP/1.1 error response as bytes to write on a raw socket, for failures Node
 * reports before Fastify has a request (unparsable head, bad `Content-Length`, request timeout,
 * connection cap). Body in the binding's shape; the connection is closed after it.
 * @param status - HTTP status (400, 408, 431, 503, …).
 * @param message - Safe, client-facing text.
 */
export function rawErrorResponse(
  binding: Binding,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): string {
  const err = new HttpException(message, status);
  const body =
    binding === 'JSONRPC'
      ? JSON.stringify({ jsonrpc: '2.0', id: null, error: renderJsonRpcError(err, false).body })
      : JSON.stringify(renderRestError(err).body);
  const head = Object.entries({
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${head}\r\n${body}`;
}

/**
 * Set on a socket while one of its requests is in flight (head read, reply not finished), and set
 * to undefined, never deleted, after: a `delete` turns the long-lived socket object into a
 * dictionary-mode object, whose property stores V8 reallocates as properties come and go (issue
 * #14; not measurable on its own in the bench).
 */
export const SOCKET_BINDING = Symbol('socketBinding');

/** A socket that may carry the binding of its in-flight request. */
export type BindingSocket = { [SOCKET_BINDING]?: Binding };

/**
 * The binding a Node-level client error belongs to: the in-flight request's (a body that
 * arrives too slowly), else from the start of the bytes that failed to parse
 * (`POST / HTTP/1.1` → JSONRPC), else HTTP+JSON.
 */
export function bindingOfClientError(socket: BindingSocket, raw: Buffer | undefined): Binding {
  const inFlight = socket[SOCKET_BINDING];
  if (inFlight !== undefined) return inFlight;
  const line = Buffer.isBuffer(raw)
    ? raw.subarray(0, 64).toString('latin1').split('\r\n', 1)[0]
    : '';
  const [method, url] = line.split(' ');
  return bindingOf(method, url);
}
