import { ChildProcess, spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TEST_DATABASE_URL } from './postgres';
import { freePort } from './test-app';

const ROOT = join(__dirname, '../..');

/** Redis for tests (issue #15): `scripts/ci-services.sh start` exports it with PostgreSQL. */
export const TEST_REDIS_URL = process.env.SUPERQODE_TEST_REDIS_URL;

/** PostgreSQL and Redis are configured; under CI=true their absence fails instead of skipping. */
export function clusterServicesAvailable(): boolean {
  if ((TEST_DATABASE_URL && TEST_REDIS_URL) || process.env.CI === 'true') return true;
  console.warn(
    'Cluster tests skipped: SUPERQODE_TEST_DATABASE_URL / SUPERQODE_TEST_REDIS_URL not set (scripts/ci-services.sh start)',
  );
  return false;
}

/** One built server (`node dist/main.js`) on a free loopback port. */
export interface Instance {
  proc: ChildProcess;
  url: string;
  /** What it wrote to stdout and stderr. */
  logs: string[];
}

/** Starts `dist/main.js` with `env` and waits for /health. @throws {Error} It did not start. */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const proc = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    env: { PATH: process.env.PATH ?? '', SUPERQODE_A2A_PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  proc.stdout!.on('data', (d: Buffer) => logs.push(d.toString()));
  proc.stderr!.on('data', (d: Buffer) => logs.push(d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { proc, url, logs };
    if (proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGKILL');
  throw new Error(`server did not start:\n${logs.join('')}`);
}

/** SIGKILLs an instance (no shutdown hooks run) and waits for it to exit. */
export async function kill(instance: Instance): Promise<void> {
  if (instance.proc.exitCode !== null || instance.proc.signalCode !== null) return;
  const exited = new Promise((r) => instance.proc.once('exit', r));
  instance.proc.kill('SIGKILL');
  await exited;
}

/**
 * A round-robin HTTP proxy on loopback: each request goes to the next target in turn, bodies and
 * responses (SSE included) streamed through. `served` lists the target index of each request.
 */
export class RoundRobinProxy {
  readonly served: number[] = [];
  targets: string[] = [];
  private next = 0;
  private server!: Server;

  static async start(): Promise<RoundRobinProxy> {
    const proxy = new RoundRobinProxy();
    proxy.server = createServer((req, res) => {
      const index = proxy.next++ % proxy.targets.length;
      proxy.served.push(index);
      const target = new URL(req.url ?? '/', proxy.targets[index]);
      const upstream = httpRequest(
        target,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (reply) => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      res.on('close', () => upstream.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.server.listen(0, '127.0.0.1', r));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The target index the next request goes to. */
  get upcoming(): number {
    return this.next % this.targets.length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
