import { Writable } from 'node:stream';
import { httpRequest } from './raw-http';

/** A log stream that keeps each written line in `lines` (for access-line checks). */
export function logSink(lines: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
}

/**
 * The server's `superqode_a2a_http_requests_total` count for one label set, read from
 * `GET /metrics` (0 when the series does not exist yet).
 */
export async function requestCount(
  url: string,
  labels: { binding: string; method: string; status: number },
  headers: Record<string, string> = {},
): Promise<number> {
  const text = (await httpRequest(url, { path: '/metrics', headers })).text;
  const series =
    `superqode_a2a_http_requests_total{binding="${labels.binding}",` +
    `method="${labels.method}",status="${labels.status}"}`;
  const line = text.split('\n').find((l) => l.startsWith(series));
  return Number(line?.split(' ').pop() ?? 0);
}
