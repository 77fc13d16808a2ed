import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { A2AClient, type A2AClientOptions } from '../a2a-client';
import { ClientTrace, formatTraceEntry } from '../client-trace';
import { runConformance } from '../conformance';
import { CONNECTION_NAME, ConnectionsStore } from '../connections.store';
import { Redactor } from '../redact';
import { withSpinner } from '../spinner';
import { checksTable, fail, out, outJson, summaryJson, summaryLines, warn } from './client-output';
import { cliOAuthProvider } from './oauth-cli';
import { converse, type Thread, type TurnFlags } from './conversation';
import { parseId, parseIdleTimeout, TURN_HELP } from './turn-flags';
import {
  chooseToken,
  clientOptions,
  ConnectionCommand,
  type ConnectionFlags,
  type TokenChoice,
  tlsFrom,
  UsageError,
} from './connection-flags';

/** Default message of `connect a2a` when `--send` is not given. */
export const DEFAULT_CONNECT_TEXT = 'hello';

/** Flags of `superqode connect a2a`. */
export interface ConnectA2aFlags extends ConnectionFlags, TurnFlags {
  /** `--send TEXT`; `false` with `--no-send` (card only). */
  send?: string | false;
  inspect?: boolean;
  conformance?: boolean;
  /** `--save NAME`. */
  save?: string;
  /** `--logout`: revoke and delete stored OAuth tokens for this agent. */
  logout?: boolean;
}

/**
 * `superqode connect a2a URL`: discovers the agent, chooses an interface, decides credentials
 * and sends one message (`--send TEXT`, default `hello`), printing agent, interface, task state
 * and reply. `--inspect` prints the redacted trace; `--conformance` runs the client-fit checks;
 * `--no-send` reads the card only; `--save NAME` keeps the connection for `a2a call`; `--logout`
 * revokes and deletes stored OAuth tokens. When the card declares OAuth 2 / OpenID Connect and no
 * token is given, an OAuth flow runs (see `cliOAuthProvider`).
 * Exit 0: completed task, Message reply, or input-required; 1: any failure; 2: usage.
 */
@SubCommand({
  name: 'a2a',
  arguments: '<url>',
  argsDescription: { url: 'agent base URL or agent card URL' },
  description: 'Connect to an A2A agent: discover, choose an interface, send a message',
})
export class ConnectA2aCommand extends ConnectionCommand {
  constructor(private readonly store: ConnectionsStore) {
    super();
  }

  async run([url]: string[], f: ConnectA2aFlags = {}): Promise<void> {
    const redactor = new Redactor();
    const trace = new ClientTrace(
      redactor,
      f.inspect && !f.json ? (e) => out(formatTraceEntry(e)) : undefined,
    );
    const token = chooseToken(f.token);
    const oauth = cliOAuthProvider();
    const options = { ...clientOptions(f, trace, token), oauth: f.logout ? undefined : oauth };
    if (f.conformance) return this.conformance(url, options, f, trace);
    let client: A2AClient;
    try {
      client = await withSpinner('reading the agent card', () => A2AClient.connect(url, options), {
        enabled: !f.inspect,
      });
    } catch (err) {
      return fail(err, redactor);
    }
    try {
      if (f.logout) {
        const report = await oauth.logout(
          client.discovery.cardUrl,
          client.securitySchemes,
          globalThis.fetch,
        );
        out(...report.lines);
        if (!report.ok) process.exitCode = 1;
        return;
      }
      for (const w of client.auth.warnings) warn(w, redactor);
      if (f.save) this.save(f.save, url, f, token);
      await this.sendAndPrint(client, url, f, trace);
    } catch (err) {
      fail(err, redactor);
    } finally {
      await client.close();
    }
  }

  private async sendAndPrint(
    client: A2AClient,
    url: string,
    f: ConnectA2aFlags,
    trace: ClientTrace,
  ): Promise<void> {
    const summary = [
      ...summaryLines(client),
      ...(f.save ? [`saved:     ${f.save} (${this.store.file})`] : []),
    ];
    if (f.send === false) {
      if (f.json)
        return outJson({
          ...summaryJson(client),
          result: null,
          trace: f.inspect ? trace.entries.map(formatTraceEntry) : undefined,
          saved: f.save ?? null,
        });
      return out(...summary, '', 'card checked; no message sent (--no-send)');
    }
    const follow = { url, connection: f.save };
    const save = (t: Thread): void => {
      if (f.save) this.store.update(f.save, t);
    };
    if (f.json) {
      const view = await converse(client, f.send || DEFAULT_CONNECT_TEXT, {}, f, follow, save);
      return outJson({
        ...summaryJson(client),
        result: view ?? null,
        trace: f.inspect ? trace.entries.map(formatTraceEntry) : undefined,
        saved: f.save ?? null,
      });
    }
    await converse(client, f.send || DEFAULT_CONNECT_TEXT, {}, f, follow, save, summary);
  }

  private async conformance(
    url: string,
    options: A2AClientOptions,
    f: ConnectA2aFlags,
    trace: ClientTrace,
  ): Promise<void> {
    const send = f.send !== false;
    const results = await withSpinner(
      'running client-fit checks',
      () => runConformance(url, options, { send, text: f.send || undefined }),
      {
        enabled: !f.inspect,
      },
    );
    if (f.json)
      outJson({
        checks: results,
        note: 'client-fit checks, not a server conformance result',
        trace: f.inspect ? trace.entries.map(formatTraceEntry) : undefined,
      });
    else out(...checksTable(results));
    if (results.some((r) => r.status === 'fail')) process.exitCode = 1;
  }

  private save(name: string, url: string, f: ConnectA2aFlags, token: TokenChoice): void {
    this.store.save({
      name,
      url,
      headers: f.header ?? [],
      tls: tlsFrom(f),
      token: token.fromEnv ? undefined : token.token,
      tokenEnv: token.fromEnv,
      trustOrigins: f.trustOrigin,
      allowInsecure: f.allowInsecure || undefined,
      contextId: undefined,
      taskId: undefined,
    });
  }

  @Option({
    flags: '--send <text>',
    description: `message to send (default "${DEFAULT_CONNECT_TEXT}")`,
  })
  parseSend(v: string): string {
    return v;
  }

  @Option({ flags: '--no-send', description: 'read and check the card only; send nothing' })
  parseNoSend(): boolean {
    return false;
  }

  @Option({
    flags: '--inspect',
    description: 'print each request and answer, the interface choice and credentials (redacted)',
  })
  parseInspect(): boolean {
    return true;
  }

  @Option({
    flags: '--conformance',
    description: 'run client-fit checks and print a table (exit 1 on any failure)',
  })
  parseConformance(): boolean {
    return true;
  }

  @Option({
    flags: '--logout',
    description: 'revoke (RFC 7009) and delete the stored OAuth tokens for this agent',
  })
  parseLogout(): boolean {
    return true;
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

  @Option({ flags: '--task <id>', description: TURN_HELP.task })
  parseTask(v: string): string {
    return parseId('--task', v);
  }

  @Option({
    flags: '--save <name>',
    description: 'save the connection (~/.superqode/a2a.json) for `a2a call NAME`',
  })
  parseSave(v: string): string {
    if (!CONNECTION_NAME.test(v))
      throw new UsageError('--save takes 1-64 of A-Z a-z 0-9 . _ - (starting alphanumeric)');
    return v;
  }
}

/** `superqode connect`: parent of `connect a2a`; alone it prints usage and exits 2. */
@Command({
  name: 'connect',
  description: 'Connect to a remote agent',
  subCommands: [ConnectA2aCommand],
})
export class ConnectCommand extends CommandRunner {
  async run(): Promise<void> {
    process.stdout.write('Usage: superqode connect a2a URL [options] (see --help)\n');
    process.exitCode = 2;
  }
}
