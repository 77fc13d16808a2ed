import { A2AClientError, A2AClientErrorCode } from './client.errors';

/** Default idle bound of a stream: no event for this long ends it, ms. */
export const DEFAULT_STREAM_IDLE_MS = 300_000;

/**
 * Iterates the stream `open(signal)` returns, ending it when no event arrives for `idleMs`: the
 * signal is aborted (the SSE connection closes) and the iteration throws. Every event (the
 * server's keep-alive comments are not events) restarts the clock.
 * @param idleMs - Idle bound, ms; 0 disables it.
 * @param what - What is awaited, for the message (`stream of task T`).
 * @throws {A2AClientError} `TIMEOUT` after `idleMs` without an event.
 */
export async function* withIdleTimeout<T>(
  open: (signal: AbortSignal) => AsyncGenerator<T>,
  idleMs: number,
  what = 'stream',
): AsyncGenerator<T> {
  const ctl = new AbortController();
  const it = open(ctl.signal);
  let timer: NodeJS.Timeout | undefined;
  try {
    for (;;) {
      const idle = new Promise<never>((_, reject) => {
        if (idleMs > 0)
          timer = setTimeout(
            () =>
              reject(
                new A2AClientError(
                  A2AClientErrorCode.Timeout,
                  `${what}: no event within ${Math.round(idleMs / 1000)} s (--idle-timeout)`,
                ),
              ),
            idleMs,
          );
      });
      let step: IteratorResult<T>;
      try {
        step = await Promise.race([it.next(), idle]);
      } finally {
        clearTimeout(timer);
      }
      if (step.done) return;
      yield step.value;
    }
  } finally {
    ctl.abort();
    // The generator may be awaiting a read the abort just failed; its settlement is not ours.
    it.return(undefined).catch(() => undefined);
  }
}
