import { A2AClient, type A2AClientOptions } from '../client/a2a-client';
import { ClientTrace, formatTraceEntry } from '../client/client-trace';
import { checksTable } from '../client/commands/client-output';
import { runConformance } from '../client/conformance';
import { ConnectionsStore, type SavedConnection } from '../client/connections.store';
import { DefaultOAuthProvider } from '../client/oauth/oauth-provider';
import { Redactor } from '../client/redact';
import { osc52 } from './osc52';
import { BusyClock } from './wait-status';
import { viewResult } from '../client/result-view';
import { sendReply, type ReplyProgress } from './reply-stream';
import { tuiOAuthProvider } from './tui-oauth';
import {
  agentViewOf,
  connectionName,
  connectionOf,
  fillFrom,
  openAskedFields,
  tlsOf,
} from './tui-connection';
import { initialState, parseHeaderField, type TuiState } from './tui-state';

/**
 * The A2A screen's behaviour, without drawing: fields, chips, connect, the conversation (one
 * contextId, input-required answers to the same task), Use, Logout, Inspect/Check, Esc stops.
 * The view (`tui-view.ts`) draws {@link TuiSession.state} and calls {@link TuiSession.changed}'s
 * listener on every change. Every network step is async: the screen never blocks on it.
 */
export class TuiSession {
  state: TuiState = initialState();
  private client?: A2AClient;
  private redactor = new Redactor();
  private wait?: AbortController;
  private lastSent?: string;
  private lastReply = '';
  private connection?: SavedConnection;
  private readonly clock = new BusyClock(
    () => this.state,
    () => this.changed(),
  );

  constructor(
    private readonly store: ConnectionsStore,
    private readonly onChange: () => void,
    private readonly write: (data: string) => void = (d) => process.stdout.write(d),
  ) {}

  /** Notifies the view. */
  changed(): void {
    this.onChange();
  }

  /** Adds lines to the conversation pane. */
  say(who: TuiState['transcript'][number]['who'], text: string): void {
    this.state.transcript.push({ who, text: this.redactor.text(text) });
    this.changed();
  }

  /** Opens the A2A screen with `url` in the origin field; connects when a URL is given. */
  async openA2a(url?: string): Promise<void> {
    this.state.screen = 'a2a';
    if (url) this.state.fields.origin = url;
    this.state.focus = url ? 'connect' : 'origin';
    this.state.status = 'Enter the agent origin and press Enter (Tab moves, Esc leaves a field)';
    this.changed();
    if (url) await this.connect();
  }

  /** Connects with the fields and chips as they are (or a saved connection's settings). */
  async connect(saved?: SavedConnection): Promise<void> {
    const s = this.state;
    if (saved) fillFrom(s, saved);
    const url = s.fields.origin.trim();
    if (!url) return this.setStatus('Type an origin first (e.g. http://127.0.0.1:8000)');
    await this.closeClient();
    this.redactor = new Redactor();
    const trace = new ClientTrace(this.redactor, (e) => s.trace.push(formatTraceEntry(e)));
    s.trace = [];
    this.begin(`connecting to ${url}`);
    try {
      const client = await A2AClient.connect(url, this.options(trace, saved));
      this.client = client;
      this.connection = saved;
      s.agent = agentViewOf(client);
      if (!saved) [s.contextId, s.taskId] = [undefined, undefined];
      const note = openAskedFields(s, client);
      if (note) this.say('info', note);
      s.focus = 'message';
      this.end(
        s.agent.catalogue
          ? `Connected: ${s.agent.name} is a catalogue (shortlists), not a model`
          : `Connected to ${s.agent.name}; type a message and press Enter`,
      );
    } catch (err) {
      s.agent = undefined;
      this.end(`Connect failed: ${this.redactor.text((err as Error).message)}`);
    }
  }

  /** Sends the message field (or `text`) on the current conversation. */
  async send(text = this.state.fields.message.trim()): Promise<void> {
    const s = this.state;
    if (!this.client || !s.agent) return this.setStatus('Connect first');
    if (!text || s.busy) return;
    this.lastSent = text;
    s.fields.message = '';
    this.say('you', text);
    const entry = { who: 'agent' as const, text: '…' };
    s.transcript.push(entry);
    const wait = new AbortController();
    this.wait = wait;
    this.pendingTask = s.taskId;
    this.begin('waiting for the agent (Esc stops)');
    let last: ReplyProgress = { text: '' };
    const onProgress = (p: ReplyProgress): void => {
      if (wait.signal.aborted) return;
      last = p;
      this.touch(p);
      entry.text = this.redactor.text(p.text || '…');
      this.changed();
    };
    const thread = { contextId: s.contextId, taskId: s.taskId };
    try {
      last = await sendReply(this.client, text, thread, {
        streaming: s.agent.streaming,
        signal: wait.signal,
        onProgress,
      });
      if (wait.signal.aborted) return;
      this.finishTurn(last, entry);
    } catch (err) {
      if (wait.signal.aborted) return;
      entry.text = '';
      this.say('error', (err as Error).message);
      this.end(`Send failed: ${this.redactor.text((err as Error).message)}`);
    } finally {
      if (this.wait === wait) this.wait = undefined;
    }
  }

  /** `Esc` during a wait: stops waiting and cancels the task when its id is known. */
  async stop(): Promise<void> {
    const s = this.state;
    if (!s.busy) return;
    this.wait?.abort();
    const id = this.pendingTask;
    this.pendingTask = undefined;
    if (!id || !this.client) return this.end('Stopped waiting (no task id yet: nothing to cancel)');
    this.end(`Canceling task ${id}…`);
    try {
      const task = await this.client.cancel(id);
      s.taskId = undefined;
      const state = viewResult(task).state ?? 'canceled';
      this.say('info', `task ${id} ${state}`);
      this.setStatus(`Stopped: task ${id} is ${state}`);
    } catch (err) {
      this.setStatus(
        `Stopped waiting; cancel failed: ${this.redactor.text((err as Error).message)}`,
      );
    }
  }

  /** `n`: the next Send starts a new conversation. */
  newContext(): void {
    [this.state.contextId, this.state.taskId] = [undefined, undefined];
    this.setStatus('New conversation: the next message starts a new context');
  }

  /** `r`: sends the last message again. */
  resend(): Promise<void> {
    return this.lastSent
      ? this.send(this.lastSent)
      : Promise.resolve(this.setStatus('Nothing to resend'));
  }

  /** `y`: copies the last reply to the clipboard with OSC 52 (works over SSH and in tmux). */
  copy(): void {
    if (!this.lastReply) return this.setStatus('No reply to copy yet');
    this.write(osc52(this.lastReply));
    this.setStatus(`Copied the last reply (${this.lastReply.length} chars, OSC 52)`);
  }

  /** Use: saves the connection as `name` (default: the agent name) and stays on the screen. */
  use(name?: string): void {
    const s = this.state;
    if (!s.agent) return this.setStatus('Connect first');
    const chosen = connectionName(name ?? s.agent.name);
    this.store.save(connectionOf(s, chosen));
    s.savedAs = chosen;
    this.setStatus(
      `Saved as "${chosen}" (${this.store.file}); :a2a call ${chosen} MESSAGE uses it`,
    );
  }

  /** Logout: revokes (when advertised) and deletes the stored OAuth tokens for this agent. */
  async logout(): Promise<void> {
    if (!this.client) return this.setStatus('Connect first');
    const { lines } = await this.oauth().logout(
      this.client.discovery.cardUrl,
      this.client.securitySchemes,
      globalThis.fetch,
    );
    for (const l of lines) this.say('info', `logout: ${l}`);
    this.setStatus(`Logout: ${lines.join('; ')}`);
  }

  /** Check (Inspect): runs the client-fit checks against the origin. */
  async check(): Promise<void> {
    const url = this.state.fields.origin.trim();
    if (!url) return this.setStatus('Type an origin first');
    this.begin('running the client-fit checks');
    const results = await runConformance(url, this.options(new ClientTrace(this.redactor)));
    this.say('info', checksTable(results).join('\n'));
    this.end(
      `Checks: ${results.filter((r) => r.status === 'pass').length}/${results.length} passed`,
    );
  }

  /** Back: leaves the A2A screen (the connection stays saved if Use saved it). */
  async back(): Promise<void> {
    this.wait?.abort();
    await this.closeClient();
    this.state = { ...initialState(), transcript: this.state.transcript };
    this.changed();
  }

  /** Sets the status line. */
  setStatus(text: string): void {
    this.state.status = text;
    this.changed();
  }

  /** Releases the client and the cold-start timer. */
  async dispose(): Promise<void> {
    this.wait?.abort();
    this.clock.stop();
    await this.closeClient();
  }

  /** The saved connection the screen was opened from (`:a2a call`), if any. */
  get savedConnection(): SavedConnection | undefined {
    return this.connection;
  }

  private pendingTask?: string;

  private finishTurn(p: ReplyProgress, entry: { text: string }): void {
    const s = this.state;
    s.contextId = p.contextId ?? s.contextId;
    const waiting = p.state === 'input-required' || p.state === 'auth-required';
    s.taskId = waiting ? p.taskId : undefined;
    this.lastReply = p.text;
    entry.text = this.redactor.text(p.text || `(no text; task ${p.state ?? 'done'})`);
    if (this.connection)
      this.store.update(this.connection.name, { contextId: s.contextId, taskId: s.taskId });
    const how = p.fellBack ? ' (stream failed: sent once instead)' : '';
    this.end(
      waiting
        ? `The task is ${p.state}: your next message answers it${how}`
        : `Reply ${p.state ?? 'received'}${how}; y copies, r resends, n new conversation`,
    );
  }

  private touch(p: ReplyProgress): void {
    // An answer is text or progress; a bare "submitted"/"working" task event is not one.
    if (p.text || p.activity) this.clock.answered();
    this.pendingTask = p.taskId ?? this.pendingTask;
    if (p.activity) this.state.status = `working: ${this.redactor.text(p.activity)} (Esc stops)`;
  }

  private begin(label: string): void {
    this.clock.begin(label);
  }

  private end(status: string): void {
    this.clock.end(status);
  }

  private options(trace: ClientTrace, saved?: SavedConnection): A2AClientOptions {
    const f = this.state.fields;
    return {
      token: f.credential || undefined,
      tokenSource: saved ? `saved connection "${saved.name}"` : 'the credential field',
      headers: parseHeaderField(f.headers),
      tls: tlsOf(f),
      oauth: this.state.chips.oauth ? this.oauth() : undefined,
      trace,
    };
  }

  private oauthProvider?: DefaultOAuthProvider;
  private oauth(): DefaultOAuthProvider {
    this.oauthProvider ??= tuiOAuthProvider((line) => this.say('info', line));
    return this.oauthProvider;
  }

  private async closeClient(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.close().catch(() => undefined);
  }
}
