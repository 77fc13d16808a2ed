import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A pass-through HTTP proxy in front of one origin that answers 503 while `failing` is set. */
export interface FlakyProxy {
  url: string;
  failing: boolean;
  /** Paths of the requests answered 503. */
  refused: string[];
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1 forwarding method, path, headers and body to `target`. */
export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  const state = { failing: false, refused: [] as string[] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.failing) {
        state.refused.push(req.url ?? '');
        return void res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance');
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([k]) => !['host', 'connection', 'content-length'].includes(k),
        ),
      ) as Record<string, string>;
      void fetch(target + (req.url ?? '/'), {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      }).then(async (up) => {
        const body = Buffer.from(await up.arrayBuffer());
        res.writeHead(up.status, {
          'content-type': up.headers.get('content-type') ?? 'text/plain',
        });
        res.end(body);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get failing() {
      return state.failing;
    },
    set failing(v: boolean) {
      state.failing = v;
    },
    refused: state.refused,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
