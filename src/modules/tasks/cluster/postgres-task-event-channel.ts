import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Client } from 'pg';
import { redactDatabaseUrl } from '../../../common/database/database-url';
import type { BatchNotifications } from '../postgres-batch-upsert';
import { TaskEventChannel, taskKeyString } from './task-event-channel';
import type { ClusterSignal, TaskKey } from './task-event-channel';

/** The PostgreSQL notification channel every instance listens on. */
export const CLUSTER_CHANNEL = 'superqode_a2a_tasks';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
export const MAX_PAYLOAD_BYTES = 7_900;

/**
 * Wire form of `changed` signals: `{"kind":"changed","keys":[["tenant","owner","taskId"],…]}`,
 * one notification for many tasks; a receiver that watches no task drops it unparsed by this prefix.
 */
const CHANGED_PREFIX = '{"kind":"changed","keys":[';
const CHANGED_SUFFIX = ']}';
const RESYNC_PAYLOAD = '{"kind":"resync"}';

/**
 * The notifications announcing `keys` changed: as few as fit {@link MAX_PAYLOAD_BYTES} each, keys in
 * order; a key too long for any payload is announced as `resync` (receivers reload what they watch).
 */
export function changedPayloads(keys: readonly TaskKey[]): string[] {
  const payloads: string[] = [];
  const frame = Buffer.byteLength(CHANGED_PREFIX) + CHANGED_SUFFIX.length;
  let parts: string[] = [];
  let bytes = frame;
  let resync = false;
  const flush = () => {
    if (parts.length > 0) payloads.push(CHANGED_PREFIX + parts.join(',') + CHANGED_SUFFIX);
    parts = [];
    bytes = frame;
  };
  for (const key of keys) {
    const part = taskKeyString(key);
    const partBytes = Buffer.byteLength(part);
    if (frame + partBytes > MAX_PAYLOAD_BYTES) {
      resync = true;
      continue;
    }
    if (bytes + partBytes + 1 > MAX_PAYLOAD_BYTES) flush();
    bytes += partBytes + (parts.length > 0 ? 1 : 0);
    parts.push(part);
  }
  flush();
  if (resync) payloads.push(RESYNC_PAYLOAD);
  return payloads;
}

/** Reconnect delays of the listening client, ms (the last one repeats). */
const RECONNECT_DELAYS_MS = [100, 250, 500, 1_000, 2_000, 5_000];

/** Sends one NOTIFY (any connection: the pool's). */
export type NotifySql = (sql: string, params: unknown[]) => Promise<unknown>;

/**
 * {@link TaskEventChannel} over PostgreSQL `LISTEN`/`NOTIFY` (issue #15): signals are sent with
 * `pg_notify` on the stores' pool (delivered at commit, in order per sending session, to every
 * listening session) and received on one dedicated `pg` client that reconnects with backoff when
 * the connection drops; after a reconnect it delivers `resync`, since notifications sent while it
 * was away are lost (followers then reload the store). `changed` signals travel as
 * {@link changedPayloads} (many tasks per notification), sent by the group commit in the
 * transaction that writes them ({@link batchNotifications}); an instance that watches no task
 * drops them unread.
 * @see PostgreSQL documentation, NOTIFY and LISTEN.
 */
export class PostgresTaskEventChannel
  extends TaskEventChannel
  implements OnModuleInit, OnApplicationShutdown
{
  private readonly logger = new Logger('TaskEventChannel');
  private client?: Client;
  private listening: Promise<void>;
  private markListening!: () => void;
  private listeningNow = false;
  private stopped = false;
  private attempt = 0;

  /**
   * @param url - PostgreSQL URL (carries the password: only its redacted form is logged).
   * @param notify - Runs `SELECT pg_notify($1, $2)` on the stores' pool.
   */
  constructor(
    private readonly url: string,
    private readonly notify: NotifySql,
  ) {
    super();
    this.listening = new Promise((resolve) => (this.markListening = resolve));
  }

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => undefined);
  }

  ready(): Promise<void> {
    return this.listening;
  }

  batchNotifications(): BatchNotifications {
    return { channel: CLUSTER_CHANNEL, payloadsOf: changedPayloads };
  }

  /** One notification per {@link MAX_PAYLOAD_BYTES} of keys ({@link changedPayloads}). */
  async publishChanged(keys: readonly TaskKey[]): Promise<void> {
    for (const p of changedPayloads(keys))
      await this.notify('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, p]);
  }

  async publish(signal: Exclude<ClusterSignal, { kind: 'resync' }>): Promise<void> {
    if (signal.kind === 'changed') return this.publishChanged([signal.key]);
    const payload = JSON.stringify(signal);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      throw new Error(`cluster signal of ${Buffer.byteLength(payload)} bytes is too long`);
    }
    await this.notify('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, payload]);
  }

  private async connect(): Promise<void> {
    // Loaded here: only a server on PostgreSQL loads pg (issue #13).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Client: PgClient } = require('pg') as { Client: typeof Client };
    const client = new PgClient({ connectionString: this.url });
    client.on('notification', (n) => {
      if (n.channel !== CLUSTER_CHANNEL || !n.payload) return;
      try {
        this.receive(n.payload);
      } catch {
        this.logger.warn('Ignored an unreadable cluster signal');
      }
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${CLUSTER_CHANNEL}`);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    const again = this.attempt > 0;
    this.client = client;
    this.attempt = 0;
    this.listeningNow = true;
    this.markListening();
    if (again) {
      this.logger.log(`Listening again on ${redactDatabaseUrl(this.url)}`);
      this.deliver({ kind: 'resync' });
    }
  }

  /** Delivers one notification's signals; `changed` ones only when some task is watched here. */
  private receive(payload: string): void {
    if (!payload.startsWith(CHANGED_PREFIX))
      return this.deliver(JSON.parse(payload) as ClusterSignal);
    if (!this.watchesChanges()) return;
    const { keys } = JSON.parse(payload) as { keys: [string, string, string][] };
    for (const k of keys) this.deliverChanged(JSON.stringify(k));
  }

  /** Drops a failed client and schedules the next connection (once per client). */
  private lost(client: Client, error: Error): void {
    if (this.stopped || (client as { lostHandled?: boolean }).lostHandled) return;
    (client as { lostHandled?: boolean }).lostHandled = true;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.client === client) this.client = undefined;
    if (this.listeningNow) {
      this.listeningNow = false;
      this.listening = new Promise((resolve) => (this.markListening = resolve));
    }
    if (this.attempt === 0)
      this.logger.warn(`Cluster listener lost (${error.message}); reconnecting`);
    const delay = RECONNECT_DELAYS_MS[Math.min(this.attempt, RECONNECT_DELAYS_MS.length - 1)];
    this.attempt += 1;
    setTimeout(() => void this.connect(), delay).unref();
  }
}
