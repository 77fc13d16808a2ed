/** Milliseconds without an answer after which the status says the host may be cold-starting. */
export const COLD_START_MS = 8000;

/**
 * The status line of a long wait, or undefined while it is not long yet: nothing at all for
 * {@link COLD_START_MS} since the send (no text, no progress) → the host may be cold-starting (a
 * scaled-to-zero host takes that long to wake); silence for as long after a first answer → still
 * waiting.
 * @param busy - When the wait began and when its last answer (text or progress) arrived (epoch ms).
 * @param now - Epoch ms.
 */
export function waitStatus(
  busy: { since: number; lastEventAt: number },
  now: number,
): string | undefined {
  if (now - busy.lastEventAt < COLD_START_MS) return undefined;
  const seconds = (ms: number): number => Math.round(ms / 1000);
  if (busy.lastEventAt === busy.since)
    return `No answer for ${seconds(now - busy.since)} s: the host may be cold-starting (Esc stops)`;
  return `Still waiting: ${seconds(now - busy.lastEventAt)} s since the agent's last event (Esc stops)`;
}
