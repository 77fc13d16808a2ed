import { connect } from 'node:net';

/** A reply read off the socket: status, lower-cased headers (raw values), body text and JSON. */
export interface RawSocketReply {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

/**
 * Sends one HTTP/1.1 request over a plain TCP socket, bytes as given: header values may hold
 * any UTF-8 text and names may repeat, which `fetch` and `node:http` refuse to send but real
 * clients do. `Connection: close`; the reply is read to the end (chunked bodies decoded).
 */
export async function rawRequest(
  baseUrl: string,
  opts: { method?: string; path: string; headers?: [string, string][]; body?: string },
): Promise<RawSocketReply> {
  const { hostname, port } = new URL(baseUrl);
  const body = Buffer.from(opts.body ?? '', 'utf8');
  const lines = [
    `${opts.method ?? 'POST'} ${opts.path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Connection: close',
  ];
  for (const [name, value] of opts.headers ?? []) lines.push(`${name}: ${value}`);
  if (body.length > 0 || opts.method !== 'GET') lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
    socket.write(Buffer.concat([head, body]));
  });
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let payload = raw.subarray(split + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) payload = dechunk(payload);
  const text = payload.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text, body: parsed };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const eol = data.indexOf('\r\n', at);
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
