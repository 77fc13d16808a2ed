import { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SSE_HEADERS, formatSSEErrorEvent, formatSSEEvent } from '@a2a-js/sdk';

/** The SSE comment line sent to keep a quiet stream alive (WHATWG HTML §9.2: lines starting with ':' are ignored). */
export const KEEP_ALIVE_COMMENT = ': keep-alive\n\n';

/** How a stream ends when the client goes away. */
export type DisconnectPolicy = 'drain' | 'stop';

/**
 * Writes an async stream of events as Server-Sent Events on a hijacked Fastify reply.
 * The caller has already peeked the first event (early errors are plain responses).
 * - `drain`: after a client disconnect, keep consuming the stream so the SDK persists every
 *   update (SendStreamingMessage: otherwise the task stays WORKING, a2a-python#464);
 * - `stop`: end consumption on disconnect (SubscribeToTask persists nothing).
 * A mid-stream failure ends the stream with one error frame: `event: error` (A2A 1.0), or with
 * `errorFrame: 'data'` a plain `data:` frame (A2A 0.3 clients read the JSON-RPC error only there).
 * With `keepAliveMs`, a `: keep-alive` comment line (ignored by SSE clients) is written at that
 * interval until the stream ends, so proxies with a read timeout do not cut a quiet stream.
 * @see A2A specification §3.3 streaming; docs/a2a-sdk-on-fastify.md §6.
 */
export async function writeSse<T>(args: {
  reply: FastifyReply;
  first: IteratorResult<T>;
  rest: AsyncIterator<T>;
  encode: (event: T) => unknown;
  encodeError: (err: unknown) => unknown;
  onDisconnect: DisconnectPolicy;
  headers?: Record<string, string>;
  errorFrame?: SseErrorFrame;
  /** Interval of the keep-alive comment, ms; none without it. */
  keepAliveMs?: number;
}): Promise<void> {
  const { reply, rest, encode } = args;
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, { ...SSE_HEADERS, ...args.headers });
  let open = true;
  raw.on('close', () => {
    open = false;
  });
  const write = (chunk: string) => {
    if (open && !raw.writableEnded) raw.write(chunk);
  };
  const keepAlive = args.keepAliveMs
    ? setInterval(() => write(KEEP_ALIVE_COMMENT), args.keepAliveMs)
    : undefined;
  keepAlive?.unref();
  try {
    if (!args.first.done) write(formatSSEEvent(encode(args.first.value)));
    if (!args.first.done) {
      for (let r = await rest.next(); !r.done; r = await rest.next()) {
        write(formatSSEEvent(encode(r.value)));
        if (!open && args.onDisconnect === 'stop') {
          await rest.return?.(undefined);
          break;
        }
      }
    }
  } catch (err) {
    if (open) write(errorFrame(args.encodeError(err), args.errorFrame));
    else
      new Logger('SseWriter').warn(
        `Stream failed after the client left: ${(err as Error)?.message}`,
      );
  } finally {
    clearInterval(keepAlive);
    if (!raw.writableEnded) raw.end();
  }
}

/**
 * How an error is framed in a stream: `event` = `event: error` + `data:` (SDK, A2A 1.0); `data` =
 * a plain `data:` frame holding the JSON-RPC error response, the one framing every 0.3 client
 * tried (a2a-js legacy, a2a-python 0.3 and the 1.x compat client) reads with its code.
 */
export type SseErrorFrame = 'event' | 'data';

function errorFrame(payload: unknown, frame: SseErrorFrame = 'event'): string {
  return frame === 'data' ? formatSSEEvent(payload) : formatSSEErrorEvent(payload);
}

/** Answers HTTP 200 with an SSE stream holding only one error frame, then ends it. */
export function writeSseError(
  reply: FastifyReply,
  payload: unknown,
  headers?: Record<string, string>,
  frame: SseErrorFrame = 'event',
): void {
  reply.hijack();
  reply.raw.writeHead(200, { ...SSE_HEADERS, ...headers });
  reply.raw.end(errorFrame(payload, frame));
}
