import { writeFileSync } from 'node:fs';
import { CommandRunner, Option, SubCommand } from 'nest-commander';
import type { HarnessEvent } from '../protocol/harness-events';
import type { HarnessRunRecord } from '../protocol/harness-records';
import { loadHarnessSpecOrTemplate } from '../spec/harness-spec.loader';
import { fail, failOnKnown, storeExists, storePathOf, withHarness } from './harness-cli';
import type { HarnessCliApi, HarnessStoreFlags } from './harness-cli';
import { checkLine, toolCompletedLine, toolRequestedLine } from './harness-event-printer';

const STORE_FLAG = '--harness-store <path>';
const STORE_HELP = 'ledger file (default .superqode/a2a/harness.sqlite3)';

/**
 * Runs a read-only ledger command; a missing ledger file is reported as `missing` (exit 1)
 * instead of creating an empty one.
 */
async function readLedger(
  flags: HarnessStoreFlags,
  missing: string,
  work: (api: HarnessCliApi) => Promise<void>,
): Promise<void> {
  const path = storePathOf(flags);
  if (!storeExists(path)) return fail(`${missing} (no harness ledger at ${path})`);
  try {
    await withHarness(path, work);
  } catch (err) {
    failOnKnown(err);
  }
}

/** One line of `harness runs`. */
export function runLine(run: HarnessRunRecord): string {
  const model = run.provider ? `${run.provider}:${run.model ?? '?'}` : '-';
  const prompt = run.prompt_preview.replace(/\s+/g, ' ').slice(0, 60);
  return [run.id, run.status.padEnd(14), run.started_at, model, prompt].join('  ');
}

/** One line of `harness show`: sequence, type and a summary of the data. */
export function eventLine(event: HarnessEvent): string {
  const head = `#${event.sequence} ${event.timestamp} ${event.type}`;
  switch (event.type) {
    case 'tool.requested':
      return `${head} ${toolRequestedLine(event.data)}`;
    case 'tool.completed':
      return `${head} ${toolCompletedLine(event.data)}`;
    case 'check.completed':
      return `${head} ${checkLine(event.data)}`;
    case 'message.delta':
    case 'message.created':
      return `${head} ${JSON.stringify(event.data.text.slice(0, 120))}`;
    case 'model.completed':
      return `${head} finish=${event.data.finish_reason} tool_calls=${event.data.tool_calls.length}`;
    default:
      return `${head} ${JSON.stringify(event.data).slice(0, 160)}`;
  }
}

/**
 * `superqode harness validate FILE|TEMPLATE`: loads and validates a HarnessSpec file or a
 * built-in template (`coding`, `read-only`, `no-tool`). Valid → `valid: <name>`
 * on stdout (warnings on stderr), exit 0; invalid → the HarnessSpecError lines on stderr, exit 1.
 */
@SubCommand({
  name: 'validate',
  arguments: '<file>',
  description: 'Validate a HarnessSpec file or built-in template (coding, read-only, no-tool)',
})
export class ValidateHarnessCommand extends CommandRunner {
  async run([file]: string[]): Promise<void> {
    try {
      const { spec, warnings } = loadHarnessSpecOrTemplate(file);
      for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
      process.stdout.write(`valid: ${spec.name} (${file})\n`);
    } catch (err) {
      failOnKnown(err);
    }
  }
}

/** Flags of `superqode harness runs`. */
export interface ListHarnessRunsFlags extends HarnessStoreFlags {
  session?: string;
  json?: boolean;
}

/**
 * `superqode harness runs [--session ID] [--json]`: runs newest first, one line each
 * (`id  status  started_at  provider:model  prompt`), or a JSON array. Exit 0 (an empty list
 * too); 1 when there is no ledger file.
 */
@SubCommand({ name: 'runs', description: 'List harness runs, newest first' })
export class ListHarnessRunsCommand extends CommandRunner {
  async run(_args: string[], flags: ListHarnessRunsFlags): Promise<void> {
    await readLedger(flags, 'no runs recorded', async ({ ledger }) => {
      const runs = await ledger.listRuns({ sessionId: flags.session });
      if (flags.json) return void process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
      for (const run of runs) process.stdout.write(`${runLine(run)}\n`);
    });
  }

  @Option({ flags: '--session <id>', description: 'only the runs of this session' })
  parseSession(value: string): string {
    return value;
  }

  @Option({ flags: '--json', description: 'print a JSON array' })
  parseJson(): boolean {
    return true;
  }

  @Option({ flags: STORE_FLAG, description: STORE_HELP })
  parseHarnessStore(value: string): string {
    return value;
  }
}

/**
 * `superqode harness show RUN_ID [--json]`: the run and its events (one line each, or the
 * `{run, events}` JSON). Exit 1 for an unknown run.
 */
@SubCommand({ name: 'show', arguments: '<runId>', description: 'Show a run and its events' })
export class ShowHarnessRunCommand extends CommandRunner {
  async run([runId]: string[], flags: HarnessStoreFlags & { json?: boolean }): Promise<void> {
    await readLedger(flags, `harness run ${runId} not found`, async ({ ledger }) => {
      const detail = await ledger.showRun(runId);
      if (flags.json) return void process.stdout.write(`${JSON.stringify(detail, null, 2)}\n`);
      const { run, events } = detail;
      process.stdout.write(`${runLine(run)}\nsession: ${run.session_id}\n`);
      if (run.error) process.stdout.write(`error: ${run.error}\n`);
      for (const event of events) process.stdout.write(`${eventLine(event)}\n`);
    });
  }

  @Option({ flags: '--json', description: 'print {run, events} as JSON' })
  parseJson(): boolean {
    return true;
  }

  @Option({ flags: STORE_FLAG, description: STORE_HELP })
  parseHarnessStore(value: string): string {
    return value;
  }
}

/**
 * `superqode harness export SESSION_ID [--output FILE]`: the session, its runs and their events
 * as JSON (`{session, runs: [{run, events}]}`) on stdout or into FILE. Exit 1 for an unknown
 * session.
 */
@SubCommand({ name: 'export', arguments: '<sessionId>', description: 'Export a session as JSON' })
export class ExportHarnessSessionCommand extends CommandRunner {
  async run([sessionId]: string[], flags: HarnessStoreFlags & { output?: string }): Promise<void> {
    await readLedger(flags, `harness session ${sessionId} not found`, async ({ controller }) => {
      const json = `${JSON.stringify(await controller.export(sessionId), null, 2)}\n`;
      if (!flags.output) return void process.stdout.write(json);
      writeFileSync(flags.output, json);
      process.stderr.write(`session ${sessionId} written to ${flags.output}\n`);
    });
  }

  @Option({ flags: '--output <file>', description: 'write the JSON to this file' })
  parseOutput(value: string): string {
    return value;
  }

  @Option({ flags: STORE_FLAG, description: STORE_HELP })
  parseHarnessStore(value: string): string {
    return value;
  }
}
