import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Env } from '../../../config/env.schema';
import {
  BindingSocket,
  bindingOfClientError,
  rawErrorResponse,
  sendBindingError,
} from './binding-errors';

/**
 * Fastify server options for the connection limits (all in ms), and error handlers that keep
 * Fastify's and Node's own failures in the A2A error shapes:
 * - `requestTimeout`: the whole request (head and body) must arrive in time, else 408 (a
 *   slow-body client cannot hold a socket forever). Node stops this clock once the request is
 *   complete, so a long reply (an SSE stream) is never cut by it;
 * - `http.headersTimeout`: the head must arrive in time (≤ requestTimeout);
 * - `keepAliveTimeout`: idle kept-alive connections close;
 * - `http.connectionsCheckingInterval`: how often Node enforces the two request deadlines;
 * - `http.requireHostHeader: false`: a missing `Host` reaches the request guards (421, A2A shape)
 *   instead of Node's bodiless 400;
 * - `clientErrorHandler`: unparsable heads, bad `Content-Length`, 408, 431 → A2A shape;
 * - `frameworkErrors`: 414 over the parameter limit, malformed URLs → A2A shape.
 * @see Node.js `http.Server` (`requestTimeout`, `headersTimeout`, `keepAliveTimeout`).
 */
export function serverLimitOptions(env: Env): Partial<FastifyServerOptions> {
  const requestTimeout = env.SUPERQODE_A2A_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(env.SUPERQODE_A2A_HEADERS_TIMEOUT_MS, requestTimeout);
  return {
    requestTimeout,
    keepAliveTimeout: env.SUPERQODE_A2A_KEEP_ALIVE_TIMEOUT_MS,
    http: {
      headersTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
      requireHostHeader: false,
    },
    clientErrorHandler,
    frameworkErrors: (err: Error, request: FastifyRequest, reply: FastifyReply) =>
      sendBindingError(request, reply, err),
  } as Partial<FastifyServerOptions>;
}

const REQUEST_TIMEOUT_MESSAGE =
  'The request was not received in time (SUPERQODE_A2A_REQUEST_TIMEOUT_MS).';

/** Node's `clientError`: answer in the binding of the bytes received (when writable), then close. */
function clientErrorHandler(error: Error, socket: Socket): void {
  const err = error as Error & { code?: string; rawPacket?: Buffer };
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, REQUEST_TIMEOUT_MESSAGE]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request headers are too large.']
        : [
            400,
            `Malformed HTTP request${err.code === 'HPE_INVALID_CONTENT_LENGTH' || err.code === 'HPE_UNEXPECTED_CONTENT_LENGTH' ? ': invalid Content-Length' : ''}.`,
          ];
  if (socket.writable)
    socket.write(
      rawErrorResponse(
        bindingOfClientError(socket as BindingSocket, err.rawPacket),
        status,
        message,
      ),
    );
  socket.destroy();
}

/** Marks a socket accepted over the per-address cap (its requests, if any, are refused). */
export const OVER_CONNECTION_CAP = Symbol('overConnectionCap');
const OVER_CAP_LINGER_MS = 2_000;

/**
 * Caps open connections per client address (the TCP peer: behind a proxy, the proxy). A
 * connection over the cap is answered 503 (`google.rpc.Status` UNAVAILABLE, `Retry-After: 1`:
 * no request has been read, so the HTTP+JSON shape), half-closed at once and destroyed shortly
 * after; a request Node still parses from it is refused by the request guards before any handler.
 * @param max - Connections per address; 0 = no cap.
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.prependListener('connection', (socket: Socket & { [OVER_CONNECTION_CAP]?: boolean }) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket[OVER_CONNECTION_CAP] = true;
      socket.on('error', () => undefined);
      socket.end(overCapResponse(max));
      setTimeout(() => socket.destroy(), OVER_CAP_LINGER_MS).unref();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** The refusal a connection over the cap gets. */
export function overCapMessage(max: number): string {
  return `Too many open connections from this address (limit ${max}, SUPERQODE_A2A_MAX_CONNECTIONS_PER_ADDRESS).`;
}

function overCapResponse(max: number): string {
  return rawErrorResponse('HTTP+JSON', 503, overCapMessage(max), { 'Retry-After': '1' });
}

/** The request a connection is reading or answering, and when its head arrived (epoch ms). */
const CURRENT_REQUEST = Symbol('currentRequest');
type RequestSocket = Socket & { [CURRENT_REQUEST]?: { req: IncomingMessage; atMs: number } };

/**
 * Keeps the whole-request deadline (`requestTimeout`) while the server closes. Node stops
 * checking it once `server.close()` begins (and Fastify then waits for every open connection), so
 * a client that sent a head and stalls its body held the shutdown forever (found in review). Once
 * Fastify closes, a request whose body has not fully arrived by its deadline gets the 408 the
 * running server gives (in its binding's shape) and its connection is closed; a complete request
 * (a reply still being written, an SSE stream) is left alone.
 * @param requestTimeoutMs - `SUPERQODE_A2A_REQUEST_TIMEOUT_MS`.
 * @see Node.js `http.Server.close()` (stops the connections-checking interval).
 */
export function keepRequestDeadlineWhileClosing(
  fastify: FastifyInstance,
  server: Server,
  requestTimeoutMs: number,
): void {
  const sockets = new Set<RequestSocket>();
  server.on('connection', (socket: RequestSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.prependListener('request', (req: IncomingMessage) => {
    (req.socket as RequestSocket)[CURRENT_REQUEST] = { req, atMs: Date.now() };
  });
  fastify.addHook('preClose', (done) => {
    for (const socket of sockets) {
      const current = socket[CURRENT_REQUEST];
      if (current === undefined || current.req.complete) continue;
      const leftMs = Math.max(0, current.atMs + requestTimeoutMs - Date.now());
      setTimeout(() => {
        if (current.req.complete || socket.destroyed) return;
        const binding = bindingOfClientError(socket as BindingSocket, undefined);
        if (socket.writable) socket.write(rawErrorResponse(binding, 408, REQUEST_TIMEOUT_MESSAGE));
        socket.destroy();
      }, leftMs).unref();
    }
    done();
  });
}
