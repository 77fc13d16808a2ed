import type { HarnessEventDataMap } from '../protocol/harness-events';
import { sandboxPolicy } from '../sandbox/sandbox-command';
import type { HarnessSpec } from '../spec/harness-spec.schema';
import { workingRoot } from '../tools/confine';
import { runInProcessGroup } from '../tools/process-group';
import type { GroupRunResult } from '../tools/process-group';

/** Longest output tail a check result keeps, in characters. */
export const CHECK_OUTPUT_TAIL_CHARS = 2_000;

/** One check's result (the `check.completed` event's data). */
export type CheckResult = HarnessEventDataMap['check.completed'];

/**
 * Runs the spec's `checks.custom_steps` (when `checks.enabled`) one after another in the working
 * directory, each in the spec's sandbox with the allowlisted environment and its own
 * `timeout_seconds` — the same spawn as the bash tool (../tools/process-group.ts). `record` gets
 * each result as it ends (the run loop records it as a `check.completed` ledger event).
 * @param signal - The run's signal: cancel or the task timeout kills the running check.
 * @returns Every result, in step order (empty when checks are off or there are none).
 */
export async function runChecks(
  spec: HarnessSpec,
  workingDir: string,
  signal: AbortSignal,
  record: (result: CheckResult) => Promise<void>,
): Promise<CheckResult[]> {
  if (!spec.checks.enabled) return [];
  const results: CheckResult[] = [];
  for (const step of spec.checks.custom_steps) {
    signal.throwIfAborted();
    const started = Date.now();
    const run = await runInProcessGroup(step.command, {
      cwd: await workingRoot(workingDir),
      sandbox: sandboxPolicy(spec),
      timeoutMs: step.timeout_seconds * 1000,
      signal,
      maxOutputBytes: spec.limits.max_output_bytes,
    });
    const result: CheckResult = {
      name: step.name,
      command: step.command,
      ok: run.exitCode === 0 && !run.killed && !run.error,
      exit_code: run.exitCode,
      timed_out: run.killed === 'timeout',
      duration_ms: Date.now() - started,
      output_tail: recordableOutput(run),
    };
    results.push(result);
    await record(result);
  }
  return results;
}

/**
 * The output a check result keeps: its last {@link CHECK_OUTPUT_TAIL_CHARS} characters, with the
 * reason it stopped when it did not exit. The single place check output enters the ledger and
 * the `checks` artifact: secret scrubbing of tool output applies here.
 */
function recordableOutput(run: GroupRunResult): string {
  const notes = [
    run.error && `[failed to start: ${run.error}]`,
    run.killed && `[killed: ${run.killed}]`,
  ].filter(Boolean);
  const text = [run.output.replace(/\n$/, ''), ...notes].filter((l) => l !== '').join('\n');
  return text.length > CHECK_OUTPUT_TAIL_CHARS ? `…${text.slice(-CHECK_OUTPUT_TAIL_CHARS)}` : text;
}

/** The `run.failed` message when `on_failure: fail` and a check failed. */
export function checksFailedMessage(failed: CheckResult[]): string {
  const names = failed.map(
    (r) => `${r.name} (\`${r.command}\`: ${r.timed_out ? 'timed out' : `exit ${r.exit_code}`})`,
  );
  return `checks failed: ${names.join(', ')}`;
}
