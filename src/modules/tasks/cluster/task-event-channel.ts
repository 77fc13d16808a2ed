import type { BatchNotifications } from '../postgres-batch-upsert';
import { scopedTaskKey } from '../task.entity';

/** A task as the stores scope it: tenant, owner (`resolveUserScope`) and id. */
export interface TaskKey {
  tenant: string;
  owner: string;
  taskId: string;
}

/** One string per task key (`["tenant","owner","taskId"]`, JSON), for maps and the wire. */
export const taskKeyString = (k: TaskKey): string => scopedTaskKey(k, k.taskId);

/**
 * What instances tell each other about tasks (issue #15). Every signal follows the store write
 * it announces, so a receiver that reads the store sees at least what was announced.
 * - `changed`: the task's stored state changed (saved by its runner, or ended by a reconciler).
 * - `cancel`: a caller asked to cancel the task; the instance running it answers `ack`, then
 *   cancels it as a local CancelTask would.
 * - `resync`: this instance's listener reconnected and may have missed signals, or a task key was
 *   too long for a notification (receivers reload).
 */
export type ClusterSignal =
  | { kind: 'changed'; key: TaskKey }
  | { kind: 'cancel'; key: TaskKey; request: string }
  | { kind: 'ack'; request: string }
  | { kind: 'resync' };

/** Receives {@link ClusterSignal}s; must not throw. */
export type ClusterListener = (signal: ClusterSignal) => void;

/**
 * The seam between instances: publishes signals to every instance (this one included) and
 * delivers theirs, in publish order per publisher. The in-process implementation serves the
 * embedded SQLite deployment (one instance); {@link PostgresTaskEventChannel} serves N instances
 * on one PostgreSQL with `LISTEN`/`NOTIFY` (no polling).
 */
export abstract class TaskEventChannel {
  private readonly listeners = new Set<ClusterListener>();
  /** `changed` watchers by {@link taskKeyString}. */
  private readonly watchers = new Map<string, Set<() => void>>();

  /** Sends a signal to every instance. @throws {Error} The database refused the notification. */
  abstract publish(signal: Exclude<ClusterSignal, { kind: 'resync' }>): Promise<void>;

  /**
   * Announces that these tasks' stored states changed, as one `changed` signal each (a channel may
   * carry many in one message). @throws {Error} The database refused the notification.
   */
  async publishChanged(keys: readonly TaskKey[]): Promise<void> {
    for (const key of keys) await this.publish({ kind: 'changed', key });
  }

  /** Resolves once signals published from now on will be delivered here. */
  abstract ready(): Promise<void>;

  /**
   * The `changed` signals of a batch, to send in the store transaction that writes it; undefined
   * when this channel cannot (then each save is published after it resolved).
   */
  batchNotifications(): BatchNotifications | undefined {
    return undefined;
  }

  /**
   * Calls `listener` for every signal except `changed` (see {@link watch}) until the returned
   * function is called.
   */
  listen(listener: ClusterListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `onChanged` for each `changed` signal about `key` until the returned function is called. */
  watch(key: TaskKey, onChanged: () => void): () => void {
    const wanted = taskKeyString(key);
    const set = this.watchers.get(wanted) ?? new Set<() => void>();
    this.watchers.set(wanted, set);
    set.add(onChanged);
    return () => {
      set.delete(onChanged);
      if (set.size === 0 && this.watchers.get(wanted) === set) this.watchers.delete(wanted);
    };
  }

  /** Some task is watched here: `changed` signals about no watched task can go unread. */
  protected watchesChanges(): boolean {
    return this.watchers.size > 0;
  }

  /** Hands a received `changed` signal (by {@link taskKeyString}) to the task's watchers. */
  protected deliverChanged(keyString: string): void {
    const set = this.watchers.get(keyString);
    if (set) for (const onChanged of [...set]) onChanged();
  }

  /** Hands a received signal to its watchers (`changed`) or to every listener (the others). */
  protected deliver(signal: ClusterSignal): void {
    if (signal.kind === 'changed') return this.deliverChanged(taskKeyString(signal.key));
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
