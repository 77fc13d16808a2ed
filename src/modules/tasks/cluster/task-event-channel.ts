/** A task as the stores scope it: tenant, owner (`resolveUserScope`) and id. */
export interface TaskKey {
  tenant: string;
  owner: string;
  taskId: string;
}

/**
 * What instances tell each other about tasks (issue #15). Every signal follows the store write
 * it announces, so a receiver that reads the store sees at least what was announced.
 * - `changed`: the task's stored state changed (saved by its runner, or ended by a reconciler).
 * - `cancel`: a caller asked to cancel the task; the instance running it answers `ack`, then
 *   cancels it as a local CancelTask would.
 * - `resync`: this instance's listener reconnected and may have missed signals (receivers reload).
 */
export type ClusterSignal =
  | { kind: 'changed'; key: TaskKey }
  | { kind: 'cancel'; key: TaskKey; request: string }
  | { kind: 'ack'; request: string }
  | { kind: 'resync' };

/** Receives every {@link ClusterSignal}; must not throw. */
export type ClusterListener = (signal: ClusterSignal) => void;

/**
 * The seam between instances: publishes signals to every instance (this one included) and
 * delivers theirs, in publish order per publisher. The in-process implementation serves the
 * embedded SQLite deployment (one instance); {@link PostgresTaskEventChannel} serves N instances
 * on one PostgreSQL with `LISTEN`/`NOTIFY` (no polling).
 */
export abstract class TaskEventChannel {
  private readonly listeners = new Set<ClusterListener>();

  /** Sends a signal to every instance. @throws {Error} The database refused the notification. */
  abstract publish(signal: Exclude<ClusterSignal, { kind: 'resync' }>): Promise<void>;

  /** Resolves once signals published from now on will be delivered here. */
  abstract ready(): Promise<void>;

  /** Calls `listener` for every signal until the returned function is called. */
  listen(listener: ClusterListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hands a received signal to every listener. */
  protected deliver(signal: ClusterSignal): void {
    for (const listener of [...this.listeners]) listener(signal);
  }
}

/** One instance (SQLite, or memory): signals go straight to this process's listeners. */
export class InProcessTaskEventChannel extends TaskEventChannel {
  publish(signal: Exclude<ClusterSignal, { kind: 'resync' }>): Promise<void> {
    this.deliver(signal);
    return Promise.resolve();
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }
}
