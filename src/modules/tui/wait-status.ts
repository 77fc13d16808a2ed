import { CLIENT_ENV, clientEnv } from '../../config/client-env';
import type { TuiState } from './tui-state';

/** Milliseconds without an answer after which the status says the host may be cold-starting. */
export const COLD_START_MS = 8000;

/**
 * The cold-start threshold in ms: `SUPERQODE_A2A_TUI_COLD_START_MS` when it is a positive
 * integer, else {@link COLD_START_MS}.
 */
export function coldStartMs(): number {
  const raw = clientEnv(CLIENT_ENV.TUI_COLD_START_MS);
  const ms = raw && /^\d+$/.test(raw) ? Number(raw) : 0;
  return ms > 0 ? ms : COLD_START_MS;
}

/**
 * The status line of a long wait, or undefined while it is not long yet: nothing at all for
 * {@link COLD_START_MS} since the send (no text, no progress) → the host may be cold-starting (a
 * scaled-to-zero host takes that long to wake); silence for as long after a first answer → still
 * waiting.
 * @param busy - When the wait began and when its last answer (text or progress) arrived (epoch ms).
 * @param now - Epoch ms.
 * @param thresholdMs - Silence that counts as long ({@link coldStartMs}).
 */
export function waitStatus(
  busy: { since: number; lastEventAt: number },
  now: number,
  thresholdMs = COLD_START_MS,
): string | undefined {
  if (now - busy.lastEventAt < thresholdMs) return undefined;
  const seconds = (ms: number): number => Math.round(ms / 1000);
  if (busy.lastEventAt === busy.since)
    return `No answer for ${seconds(now - busy.since)} s: the host may be cold-starting (Esc stops)`;
  return `Still waiting: ${seconds(now - busy.lastEventAt)} s since the agent's last event (Esc stops)`;
}

/**
 * The busy state of the screen: `begin` starts a wait (status `label…`, a 500 ms tick that
 * redraws the spinner and, after {@link coldStartMs} of silence, says so), `answered` records
 * an answer, `end` stops the wait with a final status.
 */
export class BusyClock {
  private ticker?: NodeJS.Timeout;
  private readonly thresholdMs = coldStartMs();

  constructor(
    private readonly state: () => TuiState,
    private readonly changed: () => void,
  ) {}

  /** Starts a wait. */
  begin(label: string): void {
    const now = Date.now();
    const s = this.state();
    s.busy = { label, since: now, lastEventAt: now };
    s.status = `${label}…`;
    this.ticker ??= setInterval(() => this.tick(), 500);
    this.changed();
  }

  /** Records that an answer (text or progress) arrived now. */
  answered(): void {
    const b = this.state().busy;
    if (b) b.lastEventAt = Date.now();
  }

  /** Ends the wait with `status`. */
  end(status: string): void {
    const s = this.state();
    s.busy = undefined;
    this.stop();
    s.status = status;
    this.changed();
  }

  /** Stops the tick (on exit). */
  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  private tick(): void {
    const s = this.state();
    if (!s.busy) return;
    const waited = waitStatus(s.busy, Date.now(), this.thresholdMs);
    if (waited) s.status = waited;
    this.changed();
  }
}
