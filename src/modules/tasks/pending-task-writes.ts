import { Injectable } from '@nestjs/common';

/**
 * Task saves started by the protocol core and not yet settled (issue #14: the lean request path
 * writes a final state from the event, not from a reply). A graceful stop waits for them before
 * it fails this process's leftover tasks and the stores close (`StoreLifecycleService`).
 */
@Injectable()
export class PendingTaskWrites {
  private readonly pending = new Set<Promise<unknown>>();

  /** Tracks `write` until it settles; returns it. */
  track<T>(write: Promise<T>): Promise<T> {
    this.pending.add(write);
    const done = (): void => void this.pending.delete(write);
    write.then(done, done);
    return write;
  }

  /** Saves not yet settled. */
  get size(): number {
    return this.pending.size;
  }

  /**
   * Resolves once every tracked save has settled, checking again after each one (a settled save
   * may have started the next state's), or after `graceMs` (milliseconds).
   */
  async settle(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (this.pending.size > 0 && Date.now() < deadline) {
      const tick = new Promise((r) => setTimeout(r, 50).unref());
      await Promise.race([Promise.allSettled([...this.pending]), tick]);
    }
  }
}
