import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { observeFrom } from '../../observability/http-observer';
import type { HttpObserve, ObservedRequest } from '../../observability/http-observer';
import { Binding, BindingSocket, SOCKET_BINDING } from './binding-errors';

/**
 * Gives a request to Fastify's own listener, as if no handler had seen it.
 * @param body - The body a handler has already read from the request (its bytes as received);
 *   Fastify's body parser reads it instead of the consumed request stream.
 */
export type HandOver = (body?: Buffer) => void;

/**
 * A request handler that runs before Fastify builds its request and reply, routes and runs its
 * hooks (issue #14: that work was most of a cheap request's CPU). It returns `false`, having
 * written nothing and read no body, to leave the request to Fastify; or `true` when it has taken
 * the request: then it answers it itself, or calls `handOver` (at most once, before writing
 * anything) to give it to Fastify after all, with the body it read.
 * A throw before anything was written leaves the request to Fastify.
 */
export type BeforeRouting = (
  req: IncomingMessage,
  res: ServerResponse,
  handOver: HandOver,
) => boolean;

/** Bodies read by a handler before it handed the request over, for Fastify's body parser. */
const READ_BODIES = new WeakMap<IncomingMessage, Buffer>();

/**
 * Puts `handlers` in front of the Fastify listener of `server`, tried in order for every request.
 * Every request no handler takes, and every request while Fastify closes (its 503), goes to
 * Fastify's listener unchanged, so refusals and errors keep one code path. A body a handler read
 * before handing a request over reaches Fastify's body parser through a `preParsing` hook, so
 * limits, the Content-Length check and the parser see the same bytes.
 * Call once, after Fastify created its server (the adapter's constructor) and before `listen`.
 * @see docs/performance.md (the card and SendMessage served before routing).
 */
export function serveBeforeRouting(
  fastify: FastifyInstance,
  server: Server,
  handlers: readonly BeforeRouting[],
): void {
  const listeners = server.listeners('request');
  if (listeners.length !== 1) return; // not the server Fastify made: leave it alone
  const fastifyListener = listeners[0] as (req: IncomingMessage, res: ServerResponse) => void;
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('preParsing', (request, _reply, payload, done) => {
    const body = READ_BODIES.get(request.raw);
    if (body === undefined) return done(null, payload);
    READ_BODIES.delete(request.raw);
    const stream = new PassThrough();
    stream.end(body);
    done(null, stream);
  });
  server.removeListener('request', fastifyListener);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let handedOver = false;
    const handOver: HandOver = (body) => {
      if (handedOver) return;
      handedOver = true;
      if (body !== undefined) READ_BODIES.set(req, body);
      fastifyListener.call(server, req, res);
    };
    if (!closing) for (const handler of handlers) if (taken(handler, req, res, handOver)) return;
    handOver();
  });
}

/**
 * Runs one handler, never throwing out of the server's listener (that would end the process): a
 * throw before the head was written leaves the request to the next handler or Fastify, a later
 * one ends the connection.
 */
function taken(
  handler: BeforeRouting,
  req: IncomingMessage,
  res: ServerResponse,
  handOver: HandOver,
): boolean {
  try {
    return handler(req, res, handOver);
  } catch {
    if (!res.headersSent) return false;
    res.destroy();
    return true;
  }
}

/** A `Content-Length` value as a byte count; undefined when absent or not one decimal number. */
export function bodyLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}

/**
 * Reads the body (Node's parser stops at its `Content-Length`) and calls `done` with it once the
 * request ends, then `ended` (a request handed over in `done` is routed by Fastify by then). A
 * request that fails or is aborted first is dropped (its socket is gone; nothing is answered),
 * and `ended` is called.
 */
export function readBody(
  req: IncomingMessage,
  done: (body: Buffer) => void,
  ended: () => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let reading = true;
  const end = (): void => {
    if (reading) ended();
    reading = false;
  };
  req.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
  });
  req.once('end', () => {
    done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    end();
  });
  req.once('error', () => req.socket.destroy());
  req.once('close', end);
}

/**
 * Observes a request taken before routing when its response ends (metrics, access line: as
 * Fastify's `onRequest` hook does) and marks its socket with the binding while it is in flight
 * (as the request guards do), for errors Node reports on the connection.
 * @returns What undoes both, for a request then handed to Fastify (whose hooks observe and mark
 *   it, timed from its head, as the route would).
 */
export function observeBeforeRouting(
  observe: HttpObserve,
  req: IncomingMessage,
  res: ServerResponse,
  binding: Binding,
  observed: ObservedRequest,
): () => void {
  const started = process.hrtime.bigint();
  const socket = req.socket as BindingSocket;
  socket[SOCKET_BINDING] = binding;
  const onClose = (): void => {
    socket[SOCKET_BINDING] = undefined;
    observe(observed, res, started);
  };
  res.once('close', onClose);
  return () => {
    res.removeListener('close', onClose);
    socket[SOCKET_BINDING] = undefined;
    observeFrom(req, started);
  };
}
