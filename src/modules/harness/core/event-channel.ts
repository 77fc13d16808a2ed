/**
 * An unbounded single-consumer queue exposed as an AsyncIterable: a producer pushes items
 * (never blocked), then closes it or fails it; the consumer reads them in order. A consumer
 * that stops early (`break`) only stops delivery: later pushes are dropped.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: ((result: IteratorResult<T>) => void) | null = null;
  private failWaiter: ((err: unknown) => void) | null = null;
  private closed = false;
  private detached = false;
  private error: { err: unknown } | null = null;

  /** Queues an item (dropped after close or once the consumer left). */
  push(item: T): void {
    if (this.closed || this.detached) return;
    if (this.waiter) return this.settle({ value: item, done: false });
    this.items.push(item);
  }

  /** Ends the stream after the queued items. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.waiter && this.items.length === 0) this.settle({ value: undefined, done: true });
  }

  /** Ends the stream with an error, thrown by the `next()` after the queued items. */
  fail(err: unknown): void {
    if (this.closed) return;
    this.error = { err };
    this.closed = true;
    if (this.failWaiter && this.items.length === 0) {
      const reject = this.failWaiter;
      this.waiter = this.failWaiter = null;
      reject(err);
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: async () => {
        this.detached = true;
        this.items.length = 0;
        return { value: undefined, done: true };
      },
    };
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.items.length > 0)
      return Promise.resolve({ value: this.items.shift() as T, done: false });
    if (this.error) return Promise.reject(this.error.err);
    if (this.closed || this.detached) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }

  private settle(result: IteratorResult<T>): void {
    const resolve = this.waiter;
    this.waiter = this.failWaiter = null;
    resolve?.(result);
  }
}
