import type { Part } from '@a2a-js/sdk';
import type { CheckResult } from '../checks/run-checks';
import type { ToolProgress } from './tool-progress';

/**
 * The `checks` artifact's only part: one JSON object per line (JSON Lines, `text/plain`), one
 * line per check in step order: `name`, `command`, `exit_code`, `duration_ms`, `ok`,
 * `timed_out`, `output_tail`.
 */
export function checksPart(results: CheckResult[]): Part {
  const lines = results.map((r) =>
    JSON.stringify({
      name: r.name,
      command: r.command,
      exit_code: r.exit_code,
      duration_ms: r.duration_ms,
      ok: r.ok,
      timed_out: r.timed_out,
      output_tail: r.output_tail,
    }),
  );
  return {
    content: { $case: 'text', value: lines.join('\n') },
    metadata: undefined,
    filename: 'checks.jsonl',
    mediaType: 'text/plain',
  };
}

/** The WORKING progress line of a finished check ("check unit tests passed: npm test"). */
export function checkProgress(r: CheckResult): ToolProgress {
  const verdict = r.ok ? 'passed' : r.timed_out ? 'timed out' : `failed (exit ${r.exit_code})`;
  return {
    text: `check ${r.name} ${verdict}: ${r.command}`,
    metadata: { superqodeCheck: r.name, superqodeCheckCommand: r.command, superqodeCheckOk: r.ok },
  };
}
