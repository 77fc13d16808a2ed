import { request } from 'node:http';
import { connect, Socket } from 'node:net';

/** A reply read with node:http (any Host / Origin header may be sent, unlike fetch). */
export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/** Sends one request with exactly the given headers (no defaults besides Host from the URL). */
export function httpRequest(
  url: string,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawReply> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method: opts.method ?? 'GET',
        path: opts.path ?? '/',
        headers: opts.headers,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** A raw TCP client: what was written back and when the server closed the socket. */
export interface RawSocket {
  socket: Socket;
  /** Everything the server sent, as latin1 text. */
  received(): string;
  /** Resolves with all the server sent once the server ends or closes the connection. */
  closed: Promise<string>;
}

/** Opens a TCP connection to the server of `url` and writes `initial` (if any). */
export async function rawSocket(url: string, initial?: string): Promise<RawSocket> {
  const u = new URL(url);
  const socket = connect(Number(u.port), u.hostname);
  let data = '';
  socket.setEncoding('latin1');
  socket.on('data', (c: string) => (data += c));
  const closed = new Promise<string>((resolve) => {
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', () => resolve(data));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  if (initial !== undefined) socket.write(initial);
  return { socket, received: () => data, closed };
}

/** The status code and parsed JSON body of a raw HTTP/1.1 response text. */
export function parseRawResponse(text: string): { status: number; head: string; body: any } {
  const i = text.indexOf('\r\n\r\n');
  const head = i >= 0 ? text.slice(0, i) : text;
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  let body: unknown;
  try {
    body = JSON.parse(text.slice(i + 4));
  } catch {
    body = undefined;
  }
  return { status, head, body };
}
