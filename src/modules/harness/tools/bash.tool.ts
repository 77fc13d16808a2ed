import { z } from 'zod';
import { refuseUnlistedCommands } from './bash-command-line';
import { workingRoot } from './confine';
import { sandboxPolicy } from '../sandbox/sandbox-command';
import { type GroupRunResult, runInProcessGroup } from './process-group';
import { defineTool, failure } from './tool-support';

/** Timeout when the call names none (seconds); never above `limits.task_timeout_seconds`. */
export const DEFAULT_BASH_TIMEOUT_SECONDS = 120;

/**
 * Environment variables never passed to commands: names containing TOKEN, SECRET, KEY,
 * PASSWORD, PASSWD, CREDENTIAL or AUTH (any case), and the server's own `SUPERQODE_A2A_*`.
 */
export const SECRET_ENV_NAME = /TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIAL|AUTH|^SUPERQODE_A2A_/i;

/**
 * A copy of `env` without secret-looking variables ({@link SECRET_ENV_NAME}).
 * @param env - Usually the server's environment.
 */
export function scrubEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_ENV_NAME.test(name)));
}

const inputSchema = z.object({
  command: z
    .string()
    .min(1)
    .describe('Command line, run with /bin/bash -c in the working directory'),
  timeout_seconds: z.number().positive().optional().describe('Timeout in seconds (default 120)'),
});

/**
 * `bash {command, timeout_seconds?}`: runs `/bin/bash -c` in the working directory's realpath,
 * in its own process group, stdin closed, in the spec's sandbox with an allowlisted environment
 * (see ../sandbox/sandbox-command.ts). The timeout is
 * min(`timeout_seconds` ?? 120, `limits.task_timeout_seconds`). On timeout or `ctx.signal`
 * abort the whole group is killed (SIGTERM, then SIGKILL) and the output ends with
 * `[killed: timeout after N s]` / `[killed: cancelled]`; otherwise with `[exit code: N]`.
 * With a non-empty `allowed_commands`, the line is refused unless the first word of every
 * simple command in it is listed and the line has nothing uncheckable. Under `sandbox: local`
 * the command can read and write anything the server's user can.
 */
export const bashTool = defineTool({
  name: 'bash',
  description:
    'Run a shell command with /bin/bash -c in the working directory (no stdin). Returns ' +
    'stdout and stderr interleaved and the exit code.',
  inputSchema,
  target: (input) => input.command,
  run: async (input, ctx) => {
    const { limits, execution_policy: policy } = ctx.spec;
    const bytes = Buffer.byteLength(input.command);
    if (bytes > limits.max_input_bytes)
      return failure(`command is ${bytes} bytes; the limit is ${limits.max_input_bytes}`);
    const refusal = await refuseUnlistedCommands(input.command, policy.allowed_commands);
    if (refusal) return failure(`refused: ${refusal}`);
    if (ctx.signal.aborted) return failure('[killed: cancelled]');
    const timeoutSeconds = Math.min(
      input.timeout_seconds ?? DEFAULT_BASH_TIMEOUT_SECONDS,
      limits.task_timeout_seconds,
    );
    const result = await runInProcessGroup(input.command, {
      cwd: await workingRoot(ctx.workingDir),
      // The sandbox (spec's execution_policy) and the allowlisted environment.
      sandbox: sandboxPolicy(ctx.spec),
      timeoutMs: timeoutSeconds * 1000,
      signal: ctx.signal,
      maxOutputBytes: limits.max_output_bytes,
    });
    return {
      ok: result.exitCode === 0 && !result.killed && !result.error,
      output: describe(result, timeoutSeconds),
    };
  },
});

function describe(result: GroupRunResult, timeoutSeconds: number): string {
  const lines = [result.output.replace(/\n$/, '')];
  if (result.totalBytes > Buffer.byteLength(result.output)) {
    lines.push(
      `[output truncated: showed the first ${Buffer.byteLength(result.output)} of ${result.totalBytes} bytes]`,
    );
  }
  if (result.error) lines.push(`[failed to start: ${result.error}]`);
  else if (result.killed === 'timeout') lines.push(`[killed: timeout after ${timeoutSeconds} s]`);
  else if (result.killed === 'cancelled') lines.push('[killed: cancelled]');
  else if (result.exitSignal) lines.push(`[killed by signal ${result.exitSignal}]`);
  else lines.push(`[exit code: ${result.exitCode}]`);
  return lines.filter((line) => line !== '').join('\n');
}
