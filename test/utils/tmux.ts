import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../fakes/client-cli';

/** True when the `tmux` binary is on PATH (Debian package `tmux`; `.ci/run` installs it). */
export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The built CLI's `tui` in a detached tmux session on its own server socket (`tmux -L`, a unique
 * name per screen, so parallel suites never meet), driven by `send-keys` and read by
 * `capture-pane`. {@link TuiScreen.waitFor} polls the pane against a deadline (no fixed sleeps).
 */
export class TuiScreen {
  private readonly socket = `sq-tui-${process.pid}-${randomBytes(4).toString('hex')}`;

  private constructor(
    readonly cols: number,
    readonly rows: number,
  ) {}

  /** Starts `superqode tui ARGS` at `cols`×`rows` with HOME and `NO_COLOR=1` (plus `env`). */
  static start(o: {
    home: string;
    args?: string[];
    env?: Record<string, string>;
    cols?: number;
    rows?: number;
  }): TuiScreen {
    const screen = new TuiScreen(o.cols ?? 80, o.rows ?? 24);
    const env = { HOME: o.home, NO_COLOR: '1', TERM: 'xterm-256color', ...o.env };
    const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
    const cmd = `env -i PATH=${shellQuote(process.env.PATH ?? '')} ${assignments.join(' ')} ${shellQuote(process.execPath)} ${shellQuote(CLI)} tui ${(o.args ?? []).map(shellQuote).join(' ')}`;
    screen.tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'tui',
      '-x',
      String(screen.cols),
      '-y',
      String(screen.rows),
      cmd,
    );
    screen.tmux('set-option', '-g', 'set-clipboard', 'on');
    screen.tmux('set-option', '-g', 'remain-on-exit', 'on');
    return screen;
  }

  /** Runs a tmux command on this screen's server. */
  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Types `text` literally (no key names). */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'tui', '-l', text);
  }

  /** Presses keys by tmux name (`Enter`, `Escape`, `Tab`, `BTab`, `C-c`, `y`). */
  press(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'tui', ...keys);
  }

  /** The pane as text (`escapes`: with SGR sequences, to check `NO_COLOR`). */
  capture(escapes = false): string {
    return this.tmux('capture-pane', '-p', '-t', 'tui', ...(escapes ? ['-e'] : []));
  }

  /** Polls the pane until `expected` matches; throws with the last pane after `timeoutMs`. */
  async waitFor(expected: string | RegExp, timeoutMs = 45_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let pane = '';
    while (Date.now() < deadline) {
      pane = this.capture();
      if (typeof expected === 'string' ? pane.includes(expected) : expected.test(pane)) return pane;
      await sleep(150);
    }
    throw new Error(`screen never showed ${String(expected)}; last screen:\n${pane}`);
  }

  /** Presses Tab until the pane shows `marker` (a focus mark such as `>[Send]`), at most 30 times. */
  async tabTo(marker: string): Promise<void> {
    for (let i = 0; i < 30; i++) {
      if (this.capture().includes(marker)) return;
      const before = this.capture();
      this.press('Tab');
      const deadline = Date.now() + 3000;
      while (this.capture() === before && Date.now() < deadline) await sleep(50);
    }
    throw new Error(`Tab never reached ${marker}; last screen:\n${this.capture()}`);
  }

  /** The tmux paste buffer (OSC 52 copies land there with `set-clipboard on`). */
  buffer(): string {
    return this.tmux('show-buffer');
  }

  /** Kills the tmux server of this screen (and the CLI in it). */
  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      /* already gone */
    }
  }
}

/**
 * Writes a captured screen to `docs/tui/NAME.txt` when `SUPERQODE_TUI_CAPTURE=1` (how the
 * checked-in captures are refreshed); otherwise does nothing.
 */
export function keepCapture(name: string, pane: string): void {
  if (process.env.SUPERQODE_TUI_CAPTURE !== '1') return;
  const dir = join(__dirname, '../../docs/tui');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.txt`), `${pane.replace(/\s+$/gm, '').replace(/\n+$/, '')}\n`);
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
