import { resolve } from 'node:path';
import { CommandRunner, Option, SubCommand } from 'nest-commander';
import { InvalidFlagError } from '../../auth/commands/invalid-flag.error';
import type { HarnessEvent } from '../protocol/harness-events';
import type { HarnessApprovalDecision } from '../protocol/harness-events';
import { HARNESS_PROVIDER_IDS, isHarnessProviderId } from '../providers/model-selection';
import { hideFromSandbox } from '../sandbox/sandbox-host';
import { withResolvedSandbox } from '../sandbox/spec-sandbox';
import { loadHarnessSpecOrTemplate } from '../spec/harness-spec.loader';
import type { LoadedHarnessSpec } from '../spec/harness-spec.loader';
import { fail, failOnKnown, storeExists, storePathOf, withHarness } from './harness-cli';
import type { HarnessStoreFlags } from './harness-cli';
import { HarnessEventPrinter } from './harness-event-printer';

/** Flags of `superqode harness run`. */
export interface RunHarnessFlags extends HarnessStoreFlags {
  spec: string;
  workingDir?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  json?: boolean;
}

/**
 * Prints a run's events until it ends; Ctrl-C (SIGINT) cancels it. Sets the exit code from the
 * outcome: 0 succeeded, 3 needs approval, 130 cancelled, 1 failed.
 */
export async function streamRun(
  start: (signal: AbortSignal) => AsyncIterable<HarnessEvent>,
  json = false,
): Promise<void> {
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  const printer = new HarnessEventPrinter({ out: process.stdout, err: process.stderr }, json);
  try {
    for await (const event of start(abort.signal)) printer.print(event);
  } finally {
    process.off('SIGINT', onSigint);
    printer.stop();
  }
  process.exitCode = printer.exitCode();
}

/**
 * `superqode harness run --spec FILE [--working-dir DIR] [--provider P --model M --base-url URL]
 * [--harness-store PATH] [--json] PROMPT…`: runs the prompt in a new session, streaming the
 * assistant text and one line per tool call; the ledger records every event. Exit 0 succeeded,
 * 1 failed (the message says what to fix), 2 bad flags, 3 waits for approval, 130 cancelled.
 */
@SubCommand({
  name: 'run',
  arguments: '<prompt...>',
  argsDescription: { prompt: 'what the harness should do (words are joined with spaces)' },
  description: 'Run a prompt with a HarnessSpec in a working directory',
})
export class RunHarnessCommand extends CommandRunner {
  async run(words: string[], flags: RunHarnessFlags): Promise<void> {
    let loaded: LoadedHarnessSpec;
    let sandboxed: ReturnType<typeof withResolvedSandbox>;
    try {
      loaded = loadHarnessSpecOrTemplate(flags.spec);
      sandboxed = withResolvedSandbox(loaded.spec, loaded.source);
    } catch (err) {
      return failOnKnown(err);
    }
    for (const warning of [...loaded.warnings, ...sandboxed.warnings])
      process.stderr.write(`warning: ${warning}\n`);
    hideFromSandbox([storePathOf(flags)]);
    const model = { provider: flags.provider, model: flags.model, baseUrl: flags.baseUrl };
    try {
      await withHarness(storePathOf(flags), async ({ controller }) => {
        const workingDir = resolve(flags.workingDir ?? process.cwd());
        const session = await controller.createSession({ spec: sandboxed.spec, workingDir, model });
        const prompt = words.join(' ');
        await streamRun((signal) => controller.send(session.id, prompt, { signal }), flags.json);
      });
    } catch (err) {
      failOnKnown(err);
    }
  }

  @Option({
    flags: '--spec <file>',
    description:
      'HarnessSpec file (YAML or JSON) or built-in template (coding, read-only, no-tool)',
    required: true,
  })
  parseSpec(value: string): string {
    return value;
  }

  @Option({
    flags: '--working-dir <dir>',
    description: 'directory the tools work in (default: cwd)',
  })
  parseWorkingDir(value: string): string {
    return value;
  }

  @Option({
    flags: '--provider <id>',
    description: `model provider: ${HARNESS_PROVIDER_IDS.join(', ')}`,
  })
  parseProvider(value: string): string {
    if (!isHarnessProviderId(value)) {
      throw new InvalidFlagError(`--provider must be one of ${HARNESS_PROVIDER_IDS.join(', ')}`);
    }
    return value;
  }

  @Option({ flags: '--model <id>', description: 'model id (default: model_policy.primary)' })
  parseModel(value: string): string {
    return value;
  }

  @Option({
    flags: '--base-url <url>',
    description: 'API base URL, e.g. http://127.0.0.1:11434/v1',
  })
  parseBaseUrl(value: string): string {
    return value;
  }

  @Option({
    flags: '--harness-store <path>',
    description: 'ledger file (default .superqode/a2a/harness.sqlite3)',
  })
  parseHarnessStore(value: string): string {
    return value;
  }

  @Option({ flags: '--json', description: 'print events as JSON lines instead of text' })
  parseJson(): boolean {
    return true;
  }
}

/** Flags of `superqode harness resume`. */
export interface ResumeHarnessFlags extends HarnessStoreFlags {
  json?: boolean;
}

/**
 * `superqode harness resume RUN_ID approve|deny [--harness-store PATH] [--json]`: decides the
 * pending tool call(s) of a run that needs approval and continues it (same output and exit
 * codes as `harness run`; 1 when the run is unknown or not waiting).
 */
@SubCommand({
  name: 'resume',
  arguments: '<runId> <decision>',
  argsDescription: { runId: 'a run that needs approval', decision: 'approve or deny' },
  description: 'Approve or deny the pending tool call of a run and continue it',
})
export class ResumeHarnessCommand extends CommandRunner {
  async run([runId, decision]: string[], flags: ResumeHarnessFlags): Promise<void> {
    if (decision !== 'approve' && decision !== 'deny') {
      return fail(`decision must be approve or deny, got ${decision}`, 2);
    }
    const store = storePathOf(flags);
    if (!storeExists(store))
      return fail(`harness run ${runId} not found (no harness ledger at ${store})`);
    try {
      await withHarness(store, ({ controller }) =>
        streamRun(
          (signal) => controller.resume(runId, decision as HarnessApprovalDecision, { signal }),
          flags.json,
        ),
      );
    } catch (err) {
      failOnKnown(err);
    }
  }

  @Option({
    flags: '--harness-store <path>',
    description: 'ledger file (default .superqode/a2a/harness.sqlite3)',
  })
  parseHarnessStore(value: string): string {
    return value;
  }

  @Option({ flags: '--json', description: 'print events as JSON lines instead of text' })
  parseJson(): boolean {
    return true;
  }
}
