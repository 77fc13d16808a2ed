import { COLD_START_HINT_MS, withSpinner } from './spinner';

function tty(isTTY: boolean): { isTTY: boolean; text: string; write(s: string): boolean } {
  return {
    isTTY,
    text: '',
    write(s: string) {
      this.text += s;
      return true;
    },
  };
}

describe(withSpinner.name, () => {
  afterEach(() => jest.useRealTimers());

  it('draws elapsed time on a TTY, adds the cold-start hint after 8 s, erases the line at the end', async () => {
    jest.useFakeTimers();
    const stream = tty(true);
    let finish: (v: string) => void = () => undefined;
    const p = withSpinner('waiting for the agent', () => new Promise<string>((r) => (finish = r)), {
      stream,
      intervalMs: 500,
    });
    jest.advanceTimersByTime(1_000);
    expect(stream.text).toMatch(/waiting for the agent 1\.0s/);
    expect(stream.text).not.toMatch(/cold-starting/);
    jest.advanceTimersByTime(COLD_START_HINT_MS);
    expect(stream.text).toMatch(/9\.0s \(no answer yet: the host may be cold-starting\)/);
    finish('done');
    await expect(p).resolves.toBe('done');
    expect(stream.text.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('draws nothing when the stream is not a TTY or the spinner is disabled; errors pass through', async () => {
    for (const [stream, enabled] of [
      [tty(false), true],
      [tty(true), false],
    ] as const) {
      await expect(
        withSpinner('x', () => Promise.reject(new Error('boom')), { stream, enabled }),
      ).rejects.toThrow('boom');
      expect(stream.text).toBe('');
    }
  });
});
