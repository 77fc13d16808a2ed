import { isLoopbackHost, trustedProxyHops } from '../a2a.config';
import type { Env } from '../env.schema';
import { configNamespace } from './config-namespace';

/** Where the server listens and what it calls itself (namespace `server`). */
export interface ServerSettings {
  readonly host: string;
  readonly port: number;
  /** Base URL advertised in the card, without a trailing slash. */
  readonly publicUrl: string;
  /** `--public-url` was given (else the URL is derived from host and port). */
  readonly publicUrlGiven: boolean;
  readonly allowRemote: boolean;
  /** The bind address is a loopback one (127.0.0.0/8, ::1, localhost). */
  readonly loopback: boolean;
  readonly logLevel: Env['SUPERQODE_A2A_LOG_LEVEL'];
  /** Largest accepted request body, bytes. */
  readonly maxBodyBytes: number;
  /** X-Forwarded-For hops trusted for the client address (0 unless set, remote binds included). */
  readonly trustedProxyHops: number;
  /** Address of the separate `/metrics` listener (`--metrics-host`), or undefined (none). */
  readonly metricsHost: string | undefined;
  /** Port of that listener (`--metrics-port`). */
  readonly metricsPort: number;
}

/** `server`: bind address, public URL, log level, body limit, trusted proxy hops. */
export const serverConfig = configNamespace('server', (env): ServerSettings => {
  const host = env.SUPERQODE_A2A_HOST;
  const port = env.SUPERQODE_A2A_PORT;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const url = env.SUPERQODE_A2A_PUBLIC_URL;
  return {
    host,
    port,
    publicUrl: (url ?? `http://${urlHost}:${port}`).trim().replace(/\/+$/, ''),
    publicUrlGiven: url !== undefined,
    allowRemote: env.SUPERQODE_A2A_ALLOW_REMOTE,
    loopback: isLoopbackHost(host),
    logLevel: env.SUPERQODE_A2A_LOG_LEVEL,
    maxBodyBytes: env.SUPERQODE_A2A_MAX_BODY_BYTES,
    trustedProxyHops: trustedProxyHops(
      env.SUPERQODE_A2A_TRUSTED_PROXY_HOPS,
      env.SUPERQODE_A2A_ALLOW_REMOTE,
    ),
    metricsHost: env.SUPERQODE_A2A_METRICS_HOST,
    metricsPort: env.SUPERQODE_A2A_METRICS_PORT,
  };
});
/** The `server` namespace's object. */
export type ServerConfig = ServerSettings;

/** HTTP-level guards and limits (namespace `http`; see README, configuration). */
export interface HttpServeSettings {
  /** Origins (lowercase `scheme://host[:port]`) browsers may call the RPC routes from. */
  readonly corsOrigins: readonly string[];
  /** `Host` names accepted besides loopback names and the public URL's host (lowercase). */
  readonly allowedHosts: readonly string[];
  /** Deepest nesting of objects/arrays in a request body. */
  readonly maxJsonDepth: number;
  /** Request head deadline, ms. */
  readonly headersTimeoutMs: number;
  /** Whole-request (head + body) deadline, ms. */
  readonly requestTimeoutMs: number;
  /** Idle keep-alive connection lifetime, ms. */
  readonly keepAliveTimeoutMs: number;
  /** Interval of the SSE `: keep-alive` comment on every stream, ms (proxies cut silent streams). */
  readonly sseKeepAliveMs: number;
  /** Open connections per client address; 0 = no cap. */
  readonly maxConnectionsPerAddress: number;
}

/** `http`: origins, hosts, JSON depth, timeouts, connection cap (issues #11, #12). */
export const httpConfig = configNamespace('http', (env): HttpServeSettings => ({
  corsOrigins: env.SUPERQODE_A2A_CORS_ORIGINS,
  allowedHosts: env.SUPERQODE_A2A_ALLOWED_HOSTS,
  maxJsonDepth: env.SUPERQODE_A2A_MAX_JSON_DEPTH,
  headersTimeoutMs: env.SUPERQODE_A2A_HEADERS_TIMEOUT_MS,
  requestTimeoutMs: env.SUPERQODE_A2A_REQUEST_TIMEOUT_MS,
  keepAliveTimeoutMs: env.SUPERQODE_A2A_KEEP_ALIVE_TIMEOUT_MS,
  sseKeepAliveMs: env.SUPERQODE_A2A_SSE_KEEPALIVE_MS,
  maxConnectionsPerAddress: env.SUPERQODE_A2A_MAX_CONNECTIONS_PER_ADDRESS,
}));
