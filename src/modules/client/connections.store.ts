import { Injectable } from '@nestjs/common';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CachedCard } from './card-discovery';
import { superqodeHome } from '../../config/client-env';
import type { TlsFiles } from './tls-fetch';
import { ConnectionSecrets } from './connection-secrets';

/** One saved connection in `~/.superqode/a2a.json`. */
export interface SavedConnection {
  /** Name used by `a2a call NAME` (1-64 of A-Z a-z 0-9 . _ -). */
  name: string;
  /** The URL as given to `connect a2a` (base or card URL). */
  url: string;
  /** Extra headers, `[name, value]` pairs. */
  headers: [string, string][];
  /** Paths of the TLS files (never their contents). */
  tls?: TlsFiles;
  /** A token typed on the command line; absent when it came from the environment or is in the keyring. */
  token?: string;
  /** `keyring`: the token is in the OS keyring (service `superqode-a2a-connection`, account: the name). */
  tokenIn?: 'keyring';
  /** Name of the environment variable the token is read from at each call. */
  tokenEnv?: string;
  /** Conversation continued by the next `a2a call` (cleared by `--new`). */
  contextId?: string;
  /** Task continued by the next call (only while it waits for input). */
  taskId?: string;
  /** Origins besides the card's that may receive credentials (`--trust-origin`). */
  trustOrigins?: string[];
  /** `--allow-insecure`: credentials may go over plain HTTP to a non-loopback host. */
  allowInsecure?: boolean;
  /** Last card seen and its ETag, for revalidation. */
  card?: CachedCard & { url: string };
  /** ISO 8601 time of the last save. */
  savedAt: string;
}

interface ConnectionsFile {
  version: 1;
  connections: Record<string, SavedConnection>;
}

/** Valid connection names. */
export const CONNECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Saved connections in `~/.superqode/a2a.json`: directory mode 0700, file mode 0600, written
 * atomically (temporary file, then rename). A typed token goes to the OS keyring when one is
 * reachable, else into this file (see {@link ConnectionSecrets}).
 */
@Injectable()
export class ConnectionsStore {
  private readonly secrets = new ConnectionSecrets();

  /** Path of the file; resolved per call so `HOME` changes apply. */
  get file(): string {
    return join(superqodeHome(), 'a2a.json');
  }

  /** Every saved connection, by name. A missing file is an empty list. */
  list(): SavedConnection[] {
    return Object.values(this.read().connections).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The named connection (its keyring token read back), or undefined. */
  get(name: string): SavedConnection | undefined {
    const conn = this.read().connections[name];
    if (conn?.tokenIn === 'keyring') return { ...conn, token: this.secrets.get(name) };
    return conn;
  }

  /**
   * Creates or replaces a connection (keeping `contextId` unless the new one sets it).
   * @throws {Error} Invalid name.
   */
  save(conn: Omit<SavedConnection, 'savedAt'>): SavedConnection {
    if (!CONNECTION_NAME.test(conn.name))
      throw new Error(`invalid connection name "${conn.name}" (1-64 of A-Z a-z 0-9 . _ -)`);
    const data = this.read();
    const inKeyring = conn.token ? this.secrets.put(conn.name, conn.token) : false;
    if (!inKeyring && data.connections[conn.name]?.tokenIn) this.secrets.delete(conn.name);
    const saved: SavedConnection = {
      ...data.connections[conn.name],
      ...conn,
      token: inKeyring ? undefined : conn.token,
      tokenIn: inKeyring ? 'keyring' : undefined,
      savedAt: new Date().toISOString(),
    };
    data.connections[conn.name] = saved;
    this.write(data);
    return saved;
  }

  /** Applies a partial update to an existing connection; no-op when it is gone. */
  update(name: string, patch: Partial<SavedConnection>): void {
    const data = this.read();
    if (!data.connections[name]) return;
    const { token: _token, tokenIn: _in, ...safe } = patch;
    data.connections[name] = {
      ...data.connections[name],
      ...safe,
      savedAt: new Date().toISOString(),
    };
    this.write(data);
  }

  /** Deletes a connection. @returns false when there was none by that name. */
  remove(name: string): boolean {
    const data = this.read();
    if (!data.connections[name]) return false;
    if (data.connections[name].tokenIn) this.secrets.delete(name);
    delete data.connections[name];
    this.write(data);
    return true;
  }

  private read(): ConnectionsFile {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, connections: {} };
      throw err;
    }
    const parsed = JSON.parse(text) as Partial<ConnectionsFile>;
    return { version: 1, connections: parsed.connections ?? {} };
  }

  private write(data: ConnectionsFile): void {
    const dir = dirname(this.file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }
}
