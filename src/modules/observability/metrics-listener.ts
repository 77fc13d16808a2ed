import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsService } from './metrics.service';

/**
 * A second HTTP listener serving only `GET /metrics`, without a credential (`--metrics-host`,
 * `--metrics-port`): for a scrape network the A2A port is not on. Anything else gets 404.
 * @returns The listener and its URL (`http://host:port/metrics`, the port chosen for 0).
 * @throws {Error} The address is in use or cannot be bound.
 */
export async function startMetricsListener(
  metrics: MetricsService,
  host: string,
  port: number,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, url: `http://${shown}:${address.port}/metrics` };
}
