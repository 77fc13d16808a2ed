import type { ConnectionsStore } from '../client/connections.store';
import { discoverReport } from '../client/commands/discover-report';
import { ClientTrace } from '../client/client-trace';
import type { TuiSession } from './tui-session';
import { focusOrder, TEXT_FOCUS } from './tui-state';

/** The keys the screen reads (ink's `Key`, reduced). */
export interface KeyPress {
  tab?: boolean;
  shift?: boolean;
  return?: boolean;
  escape?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  /** Alt, or Esc followed at once by a key (`ESC y` arrives as meta + `y`). */
  meta?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
}

/** Control characters of a multi-key chunk, as ink would report them alone. */
const SINGLE: Record<string, KeyPress> = {
  '\t': { tab: true },
  '\r': { return: true },
  '\x7f': { backspace: true },
};

/** Hot keys on buttons, chips and "Try" lines (not while typing in a field). */
const HOT_KEYS: Record<string, (t: TuiSession) => unknown> = {
  y: (t) => t.copy(),
  r: (t) => t.resend(),
  n: (t) => t.newContext(),
  u: (t) => t.use(),
  l: (t) => t.logout(),
  b: (t) => t.back(),
};

/**
 * Keyboard handling of the screen, no mouse: Tab / Shift-Tab (or ↓ / ↑) move the focus, Enter
 * activates, typing edits the focused field, Esc stops a wait or leaves the field (then the hot
 * keys y r n u l b work), `:` lines in the command or message field are commands.
 */
export class TuiInput {
  constructor(
    private readonly t: TuiSession,
    private readonly store: ConnectionsStore,
    private readonly quit: () => void,
  ) {}

  /** Handles one key press (ink's `useInput` arguments). */
  key(input: string, k: KeyPress): void {
    // Keys that arrive together (tmux send-keys, a fast typist, a paste) come as one string.
    if (input.length > 1 && /[\t\r\x7f]/.test(input) && !k.ctrl) {
      for (const ch of input.match(/[\t\r\x7f]|[^\t\r\x7f]+/g) ?? [])
        this.key(ch, SINGLE[ch] ?? {});
      return;
    }
    const s = this.t.state;
    if (k.ctrl && input === 'c') return this.quit();
    if (k.meta && input && !k.escape) {
      this.key('', { escape: true });
      return this.key(input, { ...k, meta: false });
    }
    if (k.escape) {
      if (s.busy) return void this.t.stop();
      if (TEXT_FOCUS[s.focus]) return this.focus(s.screen === 'a2a' ? 'send' : s.focus);
      return;
    }
    if (k.tab || k.downArrow || k.upArrow) return this.move(k.shift || k.upArrow ? -1 : 1);
    const field = TEXT_FOCUS[s.focus];
    if (k.return) return void this.activate(s.focus);
    if (field) {
      if (k.backspace || k.delete) s.fields[field] = s.fields[field].slice(0, -1);
      else if (k.ctrl && input === 'u') s.fields[field] = '';
      else if (!k.ctrl && input) s.fields[field] += input.replace(/[\r\n\t]/g, '');
      return this.t.changed();
    }
    if (s.screen === 'a2a' && HOT_KEYS[input]) void HOT_KEYS[input](this.t);
    else if (input === ':' && s.screen === 'a2a') {
      s.fields.message = ':';
      this.focus('message');
    }
  }

  /** Runs one `:` command line; unknown commands say so on the status line. */
  async command(line: string): Promise<void> {
    const [head = '', ...rest] = line.replace(/^:/, '').trim().split(/\s+/);
    const words = [head, ...rest];
    const t = this.t;
    const cmd = words.slice(0, 2).join(' ');
    if (head === 'connect' && !rest.length) return this.protocols();
    if (cmd === 'connect a2a' || cmd === 'a2a connect') return t.openA2a(words[2]);
    if (cmd === 'connect protocol-a2a') return t.openA2a(words[2]);
    if (cmd === 'a2a list') return this.list();
    if (cmd === 'a2a discover') return this.discover(words[2] ?? t.state.fields.origin);
    if (cmd === 'a2a call') return this.call(words[2], words.slice(3).join(' '));
    const simple: Record<string, () => unknown> = {
      new: () => t.newContext(),
      use: () => t.use(words[1]),
      back: () => t.back(),
      logout: () => t.logout(),
      copy: () => t.copy(),
      resend: () => t.resend(),
      check: () => t.check(),
      quit: () => this.quit(),
      q: () => this.quit(),
    };
    if (simple[head]) return void (await simple[head]());
    t.setStatus(
      `Unknown command :${words.join(' ')} (try :connect a2a URL, :a2a list, :a2a call NAME)`,
    );
  }

  private async activate(focus: string): Promise<void> {
    const t = this.t;
    const s = t.state;
    const typed = TEXT_FOCUS[focus] ? s.fields[TEXT_FOCUS[focus]].trim() : '';
    if (typed.startsWith(':')) {
      s.fields[TEXT_FOCUS[focus]] = '';
      return this.command(typed);
    }
    if (focus === 'proto-a2a') return t.openA2a();
    if (focus.startsWith('chip-')) return this.toggle(focus.slice(5) as keyof typeof s.chips);
    if (focus.startsWith('try-')) {
      s.fields.message = s.agent?.examples[Number(focus.slice(4))] ?? '';
      return this.focus('message');
    }
    const actions: Record<string, () => unknown> = {
      command: () =>
        t.setStatus('Commands start with ":" (e.g. :connect a2a http://127.0.0.1:8000)'),
      origin: () => t.connect(),
      connect: () => t.connect(),
      credential: () => t.connect(),
      headers: () => t.connect(),
      'tls-cert': () => t.connect(),
      'tls-key': () => t.connect(),
      'tls-ca': () => t.connect(),
      check: () => t.check(),
      message: () => t.send(),
      send: () => t.send(),
      use: () => t.use(),
      logout: () => t.logout(),
      back: () => t.back(),
    };
    await actions[focus]?.();
  }

  private toggle(chip: keyof TuiSession['state']['chips']): void {
    this.t.state.chips[chip] = !this.t.state.chips[chip];
    this.t.changed();
  }

  private move(step: number): void {
    const order = focusOrder(this.t.state);
    const i = order.indexOf(this.t.state.focus);
    this.focus(order[(i + step + order.length) % order.length]);
  }

  private focus(target: string): void {
    this.t.state.focus = target;
    this.t.changed();
  }

  private protocols(): void {
    Object.assign(this.t.state, { screen: 'protocols', focus: 'proto-a2a' });
    this.t.setStatus('Protocols: choose A2A with Enter');
  }

  private list(): void {
    const rows = this.store.list();
    this.t.say(
      'info',
      rows.length
        ? rows
            .map((c) => `${c.name}  ${c.url}${c.contextId ? `  context ${c.contextId}` : ''}`)
            .join('\n')
        : `no saved connections (${this.store.file})`,
    );
  }

  private async discover(url: string): Promise<void> {
    if (!url) return this.t.setStatus('Usage: :a2a discover URL');
    this.t.setStatus(`reading the agent card at ${url}…`);
    try {
      const report = await discoverReport(url, { trace: new ClientTrace() });
      this.t.say('info', report.lines.join('\n'));
      this.t.setStatus('Discovery done');
    } catch (err) {
      this.t.setStatus(`Discovery failed: ${(err as Error).message}`);
    }
  }

  private async call(name: string | undefined, text: string): Promise<void> {
    const conn = name ? this.store.get(name) : undefined;
    if (!conn) return this.t.setStatus(`No saved connection "${name ?? ''}" (see :a2a list)`);
    await this.t.connect(conn);
    if (text && this.t.state.agent) await this.t.send(text);
  }
}
