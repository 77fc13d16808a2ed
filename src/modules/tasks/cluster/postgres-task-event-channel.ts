import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { redactDatabaseUrl } from '../../../common/database/database-url';
import { TaskEventChannel } from './task-event-channel';
import type { ClusterSignal } from './task-event-channel';

/** The PostgreSQL notification channel every instance listens on. */
export const CLUSTER_CHANNEL = 'superqode_a2a_tasks';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_900;

/** Reconnect delays of the listening client, ms (the last one repeats). */
const RECONNECT_DELAYS_MS = [100, 250, 500, 1_000, 2_000, 5_000];

/** Sends one NOTIFY (any connection: the pool's). */
export type NotifySql = (sql: string, params: unknown[]) => Promise<unknown>;

/**
 * {@link TaskEventChannel} over PostgreSQL `LISTEN`/`NOTIFY` (issue #15): signals are sent with
 * `pg_notify` on the stores' pool (delivered at commit, in order per sending session, to every
 * listening session) and received on one dedicated `pg` client that reconnects with backoff when
 * the connection drops; after a reconnect it delivers `resync`, since notifications sent while it
 * was away are lost (followers then reload the store).
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

  async publish(signal: Exclude<ClusterSignal, { kind: 'resync' }>): Promise<void> {
    const payload = JSON.stringify(signal);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      throw new Error(`cluster signal of ${Buffer.byteLength(payload)} bytes is too long`);
    }
    await this.notify('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, payload]);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url });
    client.on('notification', (n) => {
      if (n.channel !== CLUSTER_CHANNEL || !n.payload) return;
      try {
        this.deliver(JSON.parse(n.payload) as ClusterSignal);
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
