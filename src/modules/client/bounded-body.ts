import { A2AClientError, A2AClientErrorCode } from './client.errors';

/** Default bound on one response body: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Default bound on one request, from sending to the last byte of a non-streaming answer: 60 s. */
export const DEFAULT_TIMEOUT_MS = 60_000;

function tooLarge(maxBytes: number): A2AClientError {
  return new A2AClientError(
    A2AClientErrorCode.ResponseTooLarge,
    `response body exceeds ${maxBytes} bytes; refusing to read further`,
  );
}

/**
 * Reads a response body as UTF-8 text, stopping with an error past `maxBytes` (the rest is not
 * downloaded: the reader is cancelled). A `Content-Length` over the bound fails before reading.
 * @param maxBytes - Bound in bytes.
 * @throws {A2AClientError} `RESPONSE_TOO_LARGE`.
 */
export async function readCappedText(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    // Not awaited: cancelling a teed (traced) body settles only when every branch is cancelled.
    res.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A copy of `res` with the same status and headers and a new body stream. */
function withBody(res: Response, body: ReadableStream<Uint8Array>): Response {
  const copy = new Response(body, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
  Object.defineProperty(copy, 'url', { value: res.url });
  return copy;
}

/**
 * Wraps a response so that reading more than `maxBytes` of its body fails with
 * `RESPONSE_TOO_LARGE` (for the SDK transports, which read bodies themselves).
 */
export function capBody(res: Response, maxBytes: number): Response {
  if (!res.body) return res;
  let total = 0;
  const cap = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > maxBytes) controller.error(tooLarge(maxBytes));
      else controller.enqueue(chunk);
    },
  });
  return withBody(res, res.body.pipeThrough(cap));
}

/**
 * Wraps an SSE response so its body always ends with a blank line. Some servers close the
 * stream right after the last `data:` line; without the terminator the SDK's parser would drop
 * that final event.
 * @see WHATWG HTML, Server-sent events §9.2.6 (an event is dispatched on a blank line).
 */
export function terminateSse(res: Response): Response {
  if (!res.body) return res;
  const tail = new TransformStream<Uint8Array, Uint8Array>({
    flush(controller) {
      controller.enqueue(new TextEncoder().encode('\n\n'));
    },
  });
  return withBody(res, res.body.pipeThrough(tail));
}

/** True when the response is an SSE stream. */
export function isEventStream(res: Response): boolean {
  return (res.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}
