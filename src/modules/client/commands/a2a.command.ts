import { ReconcileTasksCommand } from '../../tasks/commands/reconcile-tasks.command';
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { A2AClient, type A2AClientOptions } from '../a2a-client';
import { ClientTrace } from '../client-trace';
import { ConnectionsStore, type SavedConnection } from '../connections.store';
import { Redactor } from '../redact';
import { withSpinner } from '../spinner';
import { discoverReport } from './discover-report';
import { fail, out, outJson } from './client-output';
import {
  clientOptions,
  ConnectionCommand,
  parseTimeoutSeconds,
  type ConnectionFlags,
} from './connection-flags';
import { converse, stillPending, type Thread, type TurnFlags } from './conversation';
import { openTarget } from './target-client';
import { parseId, parseIdleTimeout, TURN_HELP } from './turn-flags';
import {
  A2aCancelCommand,
  A2aGetCommand,
  A2aSubscribeCommand,
  A2aTasksCommand,
} from './a2a-tasks.command';

/** `superqode a2a list`: saved connections, one per line (no token values). Exit 0. */
@SubCommand({ name: 'list', description: 'List saved A2A connections' })
export class A2aListCommand extends CommandRunner {
  constructor(private readonly store: ConnectionsStore) {
    super();
  }

  async run(_args: string[], f: { json?: boolean } = {}): Promise<void> {
    const rows = this.store.list().map((c) => ({
      name: c.name,
      url: c.url,
      token: c.tokenIn
        ? 'in the OS keyring'
        : c.token
          ? 'saved in the file'
          : c.tokenEnv
            ? `from $${c.tokenEnv}`
            : 'none',
      headers: c.headers.map(([n]) => n),
      tls: Boolean(c.tls?.cert),
      contextId: c.contextId ?? null,
    }));
    if (f.json) return outJson(rows);
    if (!rows.length)
      return out(
        `no saved connections (${this.store.file}); save one with: superqode connect a2a URL --save NAME`,
      );
    for (const r of rows) {
      const extras = [
        `token ${r.token}`,
        r.headers.length ? `headers ${r.headers.join(',')}` : '',
        r.tls ? 'mTLS' : '',
        r.contextId ? `context ${r.contextId}` : '',
      ];
      out(`${r.name}  ${r.url}  ${extras.filter(Boolean).join('; ')}`);
    }
  }

  @Option({ flags: '--json', description: 'print JSON' })
  parseJson(): boolean {
    return true;
  }
}

/** Flags of `a2a call`. */
interface CallFlags extends TurnFlags {
  new?: boolean;
  timeout?: number;
}

/**
 * `superqode a2a call NAME "message"`: sends a message on a saved connection, continuing its
 * conversation (contextId, and the task while it waits for input); `--task ID` replies to that
 * task; `--new` starts a new conversation. Streams when the card offers it (see `converse`).
 * Exit 0: completed or a Message reply; 1: failure or unknown name; 3: waiting for a reply;
 * 4: the client stopped waiting.
 */
@SubCommand({
  name: 'call',
  arguments: '<name> <message>',
  description: 'Send a message on a saved connection',
})
export class A2aCallCommand extends CommandRunner {
  constructor(private readonly store: ConnectionsStore) {
    super();
  }

  async run([name, text]: string[], f: CallFlags = {}): Promise<void> {
    const redactor = new Redactor();
    const conn = this.store.get(name);
    if (!conn) return fail(`no saved connection "${name}" (see: superqode a2a list)`, redactor);
    try {
      const { client } = await openTarget(this.store, name, f, redactor);
      try {
        await this.call(client, conn, text, f);
      } finally {
        await client.close();
      }
    } catch (err) {
      fail(err, redactor);
    }
  }

  private async call(
    client: A2AClient,
    conn: SavedConnection,
    text: string,
    f: CallFlags,
  ): Promise<void> {
    // A saved pending task that ended meanwhile is dropped (an explicit --task is used as typed).
    const pending = f.new || f.task ? undefined : await stillPending(client, conn.taskId);
    const thread = f.new ? {} : { contextId: conn.contextId, taskId: pending };
    const d = client.discovery;
    const save = (t: Thread): void =>
      this.store.update(conn.name, {
        ...t,
        card: d.etag ? { url: d.cardUrl, etag: d.etag, card: d.card } : conn.card,
      });
    const view = await converse(
      client,
      text,
      thread,
      f,
      { url: conn.url, connection: conn.name },
      save,
    );
    if (f.json) outJson({ connection: conn.name, result: view ?? null });
  }

  @Option({ flags: '--new', description: 'start a new conversation (forget the saved contextId)' })
  parseNew(): boolean {
    return true;
  }

  @Option({ flags: '--task <id>', description: TURN_HELP.task })
  parseTask(v: string): string {
    return parseId('--task', v);
  }

  @Option({ flags: '--no-stream', description: TURN_HELP.noStream })
  parseNoStream(): boolean {
    return false;
  }

  @Option({ flags: '--no-wait', description: TURN_HELP.noWait })
  parseNoWait(): boolean {
    return false;
  }

  @Option({ flags: '--idle-timeout <seconds>', description: TURN_HELP.idleTimeout })
  parseIdleTimeoutFlag(v: string): number {
    return parseIdleTimeout(v);
  }

  @Option({
    flags: '--timeout <seconds>',
    description: 'time bound per request, 1-3600 s (default 60)',
  })
  parseTimeout(v: string): number {
    return parseTimeoutSeconds(v);
  }

  @Option({ flags: '--json', description: 'print JSON' })
  parseJson(): boolean {
    return true;
  }

  @Option({ flags: '--inspect', description: 'print the redacted trace' })
  parseInspect(): boolean {
    return true;
  }
}

/** `superqode a2a remove NAME`: forgets a saved connection and its saved token. Exit 1 when unknown. */
@SubCommand({ name: 'remove', arguments: '<name>', description: 'Remove a saved A2A connection' })
export class A2aRemoveCommand extends CommandRunner {
  constructor(private readonly store: ConnectionsStore) {
    super();
  }

  async run([name]: string[]): Promise<void> {
    if (!this.store.remove(name))
      return fail(`no saved connection "${name}" (see: superqode a2a list)`, new Redactor());
    out(`removed ${name}`);
  }
}

/**
 * `superqode a2a discover URL`: reads the card and prints the agent, every interface with the
 * verdict on it, the chosen one, security schemes, capabilities and skills. Sends nothing.
 * Exit 0 when the card was read (even with no usable interface); 1 otherwise.
 */
@SubCommand({
  name: 'discover',
  arguments: '<url>',
  description: 'Read an agent card and show what this client would use',
})
export class A2aDiscoverCommand extends ConnectionCommand {
  async run([url]: string[], f: ConnectionFlags = {}): Promise<void> {
    const redactor = new Redactor();
    try {
      const options = clientOptions(f, new ClientTrace(redactor));
      const report = await withSpinner('reading the agent card', () =>
        discoverReport(url, options),
      );
      const caps = (report.json.card as { capabilities?: Record<string, unknown> }).capabilities;
      const extended = caps?.extendedAgentCard ? await extendedCard(url, options) : undefined;
      if (f.json) outJson({ ...report.json, extendedCard: extended?.json ?? null });
      else out(...report.lines, ...(extended ? [extended.line] : []));
    } catch (err) {
      fail(err, redactor);
    }
  }
}

/**
 * GetExtendedAgentCard for a card that advertises it: one line naming its skills, or why it was
 * not read (it usually needs the credentials the card declares).
 */
async function extendedCard(
  url: string,
  options: A2AClientOptions,
): Promise<{ line: string; json: unknown }> {
  try {
    const client = await A2AClient.connect(url, options);
    try {
      const card = await client.getExtendedCard();
      const skills = card.skills.map((s) => s.name).join(', ') || 'none';
      return { line: `extended card: ${card.name} ${card.version}; skills: ${skills}`, json: card };
    } finally {
      await client.close();
    }
  } catch (err) {
    const why = (err as Error).message.split('\n')[0];
    return { line: `extended card: not read (${why})`, json: { error: why } };
  }
}

/** `superqode a2a`: parent of list, call, discover; alone it prints usage and exits 2. */
@Command({
  name: 'a2a',
  description: 'A2A client: saved connections and discovery',
  subCommands: [
    A2aListCommand,
    A2aCallCommand,
    A2aRemoveCommand,
    A2aDiscoverCommand,
    A2aGetCommand,
    A2aCancelCommand,
    A2aSubscribeCommand,
    A2aTasksCommand,
    ReconcileTasksCommand,
  ],
})
export class A2aCommand extends CommandRunner {
  async run(): Promise<void> {
    process.stdout.write(
      'Usage: superqode a2a list|call|remove|discover|get|cancel|subscribe|tasks|reconcile (see --help)\n',
    );
    process.exitCode = 2;
  }
}
