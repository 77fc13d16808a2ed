import { ReconcileTasksCommand } from '../../tasks/commands/reconcile-tasks.command';
import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { A2AClient } from '../a2a-client';
import { MemoryCardCache } from '../card-discovery';
import { ClientTrace, formatTraceEntry } from '../client-trace';
import { ConnectionsStore, type SavedConnection } from '../connections.store';
import { Redactor } from '../redact';
import { viewResult } from '../result-view';
import { withSpinner } from '../spinner';
import { discoverReport } from './discover-report';
import { fail, out, outJson, resultLines, succeeded } from './client-output';
import { clientEnv } from '../../../config/client-env';
import { cliOAuthProvider } from './oauth-cli';
import { clientOptions, ConnectionCommand, type ConnectionFlags } from './connection-flags';

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
      token: c.token ? 'saved' : c.tokenEnv ? `from $${c.tokenEnv}` : 'none',
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
interface CallFlags {
  new?: boolean;
  json?: boolean;
  inspect?: boolean;
}

/**
 * `superqode a2a call NAME "message"`: sends a message on a saved connection, continuing its
 * conversation (contextId, and the task while it waits for input); `--new` starts a new one.
 * Exit 0: completed, input-required or a Message reply; 1: failure or unknown name.
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
    const trace = new ClientTrace(
      redactor,
      f.inspect && !f.json ? (e) => out(formatTraceEntry(e)) : undefined,
    );
    const token = conn.token
      ? { token: conn.token }
      : conn.tokenEnv
        ? { token: clientEnv(conn.tokenEnv), fromEnv: conn.tokenEnv }
        : {};
    const cache = new MemoryCardCache();
    if (conn.card) cache.set(conn.card.url, conn.card);
    const flags = {
      header: conn.headers,
      tlsCert: conn.tls?.cert,
      tlsKey: conn.tls?.key,
      tlsCa: conn.tls?.ca,
    };
    const options = {
      ...clientOptions(flags, trace, token),
      cardCache: cache,
      oauth: cliOAuthProvider(),
    };
    if (conn.token) options.tokenSource = `saved connection "${conn.name}"`;
    try {
      const client = await withSpinner(
        'reading the agent card',
        () => A2AClient.connect(conn.url, options),
        { enabled: !f.inspect },
      );
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
    const thread = f.new ? {} : { contextId: conn.contextId, taskId: conn.taskId };
    const result = await withSpinner('waiting for the agent', () => client.send(text, thread), {
      enabled: !f.inspect,
    });
    const view = viewResult(result);
    const waiting = view.state === 'input-required' || view.state === 'auth-required';
    const d = client.discovery;
    this.store.update(conn.name, {
      contextId: view.contextId ?? conn.contextId,
      taskId: waiting ? view.taskId : undefined,
      card: d.etag ? { url: d.cardUrl, etag: d.etag, card: d.card } : conn.card,
    });
    if (f.json) outJson({ connection: conn.name, result: view });
    else out(...resultLines(view));
    if (!succeeded(view)) process.exitCode = 1;
  }

  @Option({ flags: '--new', description: 'start a new conversation (forget the saved contextId)' })
  parseNew(): boolean {
    return true;
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
      const report = await withSpinner('reading the agent card', () =>
        discoverReport(url, clientOptions(f, new ClientTrace(redactor))),
      );
      if (f.json) outJson(report.json);
      else out(...report.lines);
    } catch (err) {
      fail(err, redactor);
    }
  }
}

/** `superqode a2a`: parent of list, call, discover; alone it prints usage and exits 2. */
@Command({
  name: 'a2a',
  description: 'A2A client: saved connections and discovery',
  subCommands: [A2aListCommand, A2aCallCommand, A2aDiscoverCommand, ReconcileTasksCommand],
})
export class A2aCommand extends CommandRunner {
  async run(): Promise<void> {
    process.stdout.write('Usage: superqode a2a list|call|discover (see --help)\n');
    process.exitCode = 2;
  }
}
