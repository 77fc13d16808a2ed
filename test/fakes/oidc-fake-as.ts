import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted device-flow authorization server (RFC 8628) on 127.0.0.1. */
export interface FakeDeviceAs {
  url: string;
  /** Epoch ms of each token-endpoint poll. */
  polls: number[];
  close(): Promise<void>;
}

/**
 * Answers `POST /device` with interval 1 s, then the token endpoint with the scripted errors in
 * order (e.g. `authorization_pending`, `slow_down`) and finally an access token.
 */
export async function startFakeDeviceAs(script: string[]): Promise<FakeDeviceAs> {
  const polls: number[] = [];
  const answers = [...script];
  const server: Server = createServer((req, res) => {
    const json = (status: number, body: unknown): void =>
      void res
        .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(body));
    req.resume();
    req.on('end', () => {
      if (req.url === '/device')
        return json(200, {
          device_code: 'dev-code',
          user_code: 'ABCD-EFGH',
          verification_uri: 'http://127.0.0.1/verify',
          expires_in: 600,
          interval: 1,
        });
      if (req.url === '/token') {
        polls.push(Date.now());
        const next = answers.shift();
        return next
          ? json(400, { error: next })
          : json(200, {
              access_token: 'device-access-token-123',
              token_type: 'Bearer',
              expires_in: 3600,
            });
      }
      json(404, {});
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    polls,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
