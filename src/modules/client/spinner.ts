/** Seconds without an answer after which the spinner mentions a possible cold start. */
export const COLD_START_HINT_MS = 8_000;

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The stream a spinner draws on (stderr in the CLI). */
export interface SpinnerStream {
  isTTY?: boolean;
  write(chunk: string): boolean;
}

/**
 * Runs `work` while drawing `⠋ label 3.2s` on `stream`, redrawn every `intervalMs`; after
 * {@link COLD_START_HINT_MS} without an answer it adds that the host may be cold-starting.
 * Draws nothing when the stream is not a TTY (pipes, CI, tests) or when `enabled` is false.
 * The line is erased when `work` settles; its result or error passes through.
 */
export async function withSpinner<T>(
  label: string,
  work: () => Promise<T>,
  o: { stream?: SpinnerStream; enabled?: boolean; intervalMs?: number } = {},
): Promise<T> {
  const stream = o.stream ?? process.stderr;
  if (o.enabled === false || !stream.isTTY) return work();
  const started = Date.now();
  let frame = 0;
  const draw = (): void => {
    const ms = Date.now() - started;
    const hint = ms >= COLD_START_HINT_MS ? ' (no answer yet: the host may be cold-starting)' : '';
    stream.write(
      `\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${label} ${(ms / 1000).toFixed(1)}s${hint}`,
    );
  };
  const timer = setInterval(draw, o.intervalMs ?? 100);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    stream.write('\r\x1b[2K');
  }
}
