import { Injectable } from '@nestjs/common';
import { Option, SubCommand } from 'nest-commander';
import type { A2AClient } from '../a2a-client';
import { ConnectionsStore } from '../connections.store';
import { Redactor } from '../redact';
import { viewResult, type ResultView } from '../result-view';
import { fail, out, outJson, resultLines } from './client-output';
import { ConnectionCommand, UsageError, type ConnectionFlags } from './connection-flags';
import { followLines } from './conversation';
import { printStream } from './stream-output';
import { openTarget } from './target-client';
import { parseId, parseIdleTimeout, TURN_HELP } from './turn-flags';

/** Runs `work` on a client for `target` (saved name or URL), reporting failures (exit 1). */
@Injectable()
abstract class TargetCommand extends ConnectionCommand {
  constructor(protected readonly store: ConnectionsStore) {
    super();
  }

  protected async withTarget(
    target: string,
    f: ConnectionFlags,
    work: (c: A2AClient, follow: { url: string; connection?: string }) => Promise<void>,
  ): Promise<void> {
    const redactor = new Redactor();
    try {
      const t = await openTarget(this.store, target, f, redactor);
      try {
        await work(t.client, { url: t.url, connection: t.conn?.name });
      } finally {
        await t.client.close();
      }
    } catch (err) {
      fail(err, redactor);
    }
  }
}

function printView(v: ResultView, json?: boolean): void {
  if (json) outJson({ result: v });
  else out(...resultLines(v));
}

/** `superqode a2a get TARGET ID`: GetTask, printing state and text. Exit 0; 1 on failure (TaskNotFound). */
@SubCommand({
  name: 'get',
  arguments: '<target> <id>',
  argsDescription: { target: 'saved connection name or agent URL', id: 'task id' },
  description: 'Show a task (GetTask)',
})
export class A2aGetCommand extends TargetCommand {
  async run([target, id]: string[], f: ConnectionFlags = {}): Promise<void> {
    await this.withTarget(target, f, async (c) =>
      printView(viewResult(await c.getTask(id)), f.json),
    );
  }
}

/** `superqode a2a cancel TARGET ID`: CancelTask. Exit 0 when canceled; 1 otherwise (TaskNotCancelable). */
@SubCommand({
  name: 'cancel',
  arguments: '<target> <id>',
  argsDescription: { target: 'saved connection name or agent URL', id: 'task id' },
  description: 'Cancel a task (CancelTask)',
})
export class A2aCancelCommand extends TargetCommand {
  async run([target, id]: string[], f: ConnectionFlags = {}): Promise<void> {
    await this.withTarget(target, f, async (c) =>
      printView(viewResult(await c.cancel(id)), f.json),
    );
  }
}

/**
 * `superqode a2a subscribe TARGET ID`: SubscribeToTask, printing the answer and status lines as
 * they arrive until the task ends or waits. Exit 0; 1 on failure; 4 when the stream went idle.
 */
@SubCommand({
  name: 'subscribe',
  arguments: '<target> <id>',
  argsDescription: { target: 'saved connection name or agent URL', id: 'task id' },
  description: 'Follow a running task (SubscribeToTask)',
})
export class A2aSubscribeCommand extends TargetCommand {
  async run(
    [target, id]: string[],
    f: ConnectionFlags & { idleTimeout?: number } = {},
  ): Promise<void> {
    await this.withTarget(target, f, async (c, follow) => {
      const idleTimeoutMs = f.idleTimeout === undefined ? undefined : f.idleTimeout * 1000;
      const sink = {
        text: (t: string): void => void (f.json || process.stdout.write(t)),
        status: (l: string): void => void (f.json || process.stderr.write(`· ${l}\n`)),
      };
      try {
        const o = await printStream(c.subscribe(id, { idleTimeoutMs }), sink);
        if (f.json) return outJson({ result: o.view, artifacts: o.artifacts });
        out('', ...resultLines({ ...o.view, text: o.answer ? [] : o.view.text }));
        for (const a of o.artifacts) out('', `artifact ${a.name}:`, ...a.text);
      } catch (err) {
        if ((err as { code?: string }).code === 'TIMEOUT') {
          process.stderr.write(`error: ${(err as Error).message}\n`);
          process.stderr.write(
            followLines(follow, id)
              .map((l) => `  ${l}\n`)
              .join(''),
          );
          process.exitCode = 4;
          return;
        }
        throw err;
      }
    });
  }

  @Option({ flags: '--idle-timeout <seconds>', description: TURN_HELP.idleTimeout })
  parseIdleTimeoutFlag(v: string): number {
    return parseIdleTimeout(v);
  }
}

/** Flags of `a2a tasks`. */
interface TasksFlags extends ConnectionFlags {
  context?: string;
  status?: string;
  pageSize?: number;
  pageToken?: string;
}

const STATES = [
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
];

/**
 * `superqode a2a tasks TARGET`: ListTasks with filters (`--context`, `--status`, `--page-size`,
 * `--page-token`), one task per line, then the next page's token. Exit 0; 1 on failure.
 */
@SubCommand({
  name: 'tasks',
  arguments: '<target>',
  argsDescription: { target: 'saved connection name or agent URL' },
  description: 'List tasks (ListTasks)',
})
export class A2aTasksCommand extends TargetCommand {
  async run([target]: string[], f: TasksFlags = {}): Promise<void> {
    await this.withTarget(target, f, async (c, follow) => {
      const page = await c.listTasks({
        contextId: f.context,
        status: f.status,
        pageSize: f.pageSize,
        pageToken: f.pageToken,
      });
      const views = page.tasks.map((t) => viewResult(t));
      if (f.json)
        return outJson({
          tasks: views,
          nextPageToken: page.nextPageToken || null,
          totalSize: page.totalSize,
        });
      if (!views.length) out('no tasks');
      const saved = follow.connection ? this.store.get(follow.connection)?.contextId : undefined;
      if (!views.length && !f.context && saved) {
        // An anonymous caller's ListTasks answers only for a named context (README, Access).
        out(
          `(anonymous callers see only a named context's tasks: --context ${saved} is this conversation)`,
        );
      }
      for (const v of views) out(`${v.taskId}  ${v.state}  context ${v.contextId ?? '-'}`);
      if (page.nextPageToken) out('', `next page: --page-token ${page.nextPageToken}`);
    });
  }

  @Option({ flags: '--context <id>', description: 'only tasks of this contextId' })
  parseContext(v: string): string {
    return parseId('--context', v);
  }

  @Option({
    flags: '--status <state>',
    description: `only tasks in this state (${STATES.join(', ')})`,
  })
  parseStatus(v: string): string {
    if (!STATES.includes(v)) throw new UsageError(`--status takes one of ${STATES.join(', ')}`);
    return v;
  }

  @Option({ flags: '--page-size <n>', description: 'tasks per page, 1-100 (default 50)' })
  parsePageSize(v: string): number {
    const n = /^\d{1,3}$/.test(v) ? Number(v) : NaN;
    if (!(n >= 1 && n <= 100))
      throw new UsageError('--page-size must be a whole number from 1 to 100');
    return n;
  }

  @Option({ flags: '--page-token <token>', description: "a previous page's next-page token" })
  parsePageToken(v: string): string {
    return v;
  }
}
