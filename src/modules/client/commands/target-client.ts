import { A2AClient, type A2AClientOptions } from '../a2a-client';
import { MemoryCardCache } from '../card-discovery';
import { ClientTrace, formatTraceEntry } from '../client-trace';
import type { ConnectionsStore, SavedConnection } from '../connections.store';
import type { Redactor } from '../redact';
import { withSpinner } from '../spinner';
import { clientEnv } from '../../../config/client-env';
import { out } from './client-output';
import { cliOAuthProvider } from './oauth-cli';
import { clientOptions, type ConnectionFlags } from './connection-flags';

/** A client opened for a saved connection or a URL, and what names it in follow-up commands. */
export interface TargetClient {
  client: A2AClient;
  /** The saved connection, when `target` named one. */
  conn?: SavedConnection;
  url: string;
}

/** Client options of a saved connection: its headers, TLS files, token (or token variable), cached card. */
export function savedOptions(
  conn: SavedConnection,
  trace: ClientTrace,
  timeout?: number,
): A2AClientOptions {
  const token = conn.token
    ? { token: conn.token }
    : conn.tokenEnv
      ? { token: clientEnv(conn.tokenEnv), fromEnv: conn.tokenEnv }
      : {};
  const cache = new MemoryCardCache();
  if (conn.card) cache.set(conn.card.url, conn.card);
  const flags: ConnectionFlags = {
    header: conn.headers,
    tlsCert: conn.tls?.cert,
    tlsKey: conn.tls?.key,
    tlsCa: conn.tls?.ca,
    timeout,
  };
  const options = {
    ...clientOptions(flags, trace, token),
    cardCache: cache,
    oauth: cliOAuthProvider(),
    trustOrigins: conn.trustOrigins,
    allowInsecure: conn.allowInsecure,
  };
  if (conn.token) options.tokenSource = `saved connection "${conn.name}"`;
  return options;
}

/**
 * Opens a client for `target`: a saved connection name (its saved settings), else a URL (the
 * connection flags apply).
 * @throws {Error} Neither a saved name nor a URL.
 * @throws {A2AClientError} As `A2AClient.connect`.
 */
export async function openTarget(
  store: ConnectionsStore,
  target: string,
  f: ConnectionFlags & { inspect?: boolean },
  redactor: Redactor,
): Promise<TargetClient> {
  const trace = new ClientTrace(
    redactor,
    f.inspect && !f.json ? (e) => out(formatTraceEntry(e)) : undefined,
  );
  const conn = store.get(target);
  if (!conn && !/^https?:\/\/|^[\w.-]+:\d+/.test(target))
    throw new Error(`no saved connection "${target}" (see: superqode a2a list), and not a URL`);
  const options = conn
    ? savedOptions(conn, trace, f.timeout)
    : { ...clientOptions(f, trace), oauth: cliOAuthProvider() };
  const url = conn?.url ?? target;
  const client = await withSpinner(
    'reading the agent card',
    () => A2AClient.connect(url, options),
    {
      enabled: !f.inspect,
    },
  );
  return { client, conn, url };
}
