import type { ModuleMetadata } from '@nestjs/common';
import { CommandTestFactory } from 'nest-commander-testing';
import { commanderExitCode, commanderOf, exitOverrideEverywhere } from '../../src/cli/run-cli';

/** Outcome of one in-process CLI run. */
export interface InProcessRun {
  /** The exit code the real CLI ends with (commander's, the command's `process.exitCode`, or 1 for a thrown error). */
  status: number;
  stdout: string;
  stderr: string;
  /** stdout + stderr. */
  out: string;
}

/** A commander exit (usage error, help), carried out of commander's parse. */
class CommanderExit extends Error {
  constructor(readonly code: number) {
    super(`commander exit ${code}`);
  }
}

/**
 * Runs `superqode …args` in process with `nest-commander-testing` on the given feature command
 * modules (those `CliModule` imports), with the CLI's exit-code rules (`src/cli/run-cli.ts`):
 * usage errors 2, a thrown error 1 (its message on stderr), else the command's `process.exitCode`.
 * `env` sets (undefined: removes) process variables for the run only; stdout and stderr are captured.
 */
export async function runCommandInProcess(
  imports: NonNullable<ModuleMetadata['imports']>,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<InProcessRun> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const setEnv = (vars: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  let stdout = '';
  let stderr = '';
  let status: number | undefined;
  const onExit = (err: Error & { code?: string }): never => {
    throw new CommanderExit(commanderExitCode(err));
  };
  const outSpy = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    });
  const errSpy = jest
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
  setEnv(env);
  process.exitCode = undefined;
  try {
    const app = await CommandTestFactory.createTestingCommand(
      { imports: [...imports] },
      {
        cliName: 'superqode',
        errorHandler: onExit,
        serviceErrorHandler: (err: Error) => {
          if (err instanceof CommanderExit) status = err.code;
          else {
            stderr += `${err.message}\n`;
            status = 1;
          }
        },
        outputConfiguration: { writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) },
      },
    ).compile();
    await app.init();
    exitOverrideEverywhere(commanderOf(app), onExit);
    await CommandTestFactory.run(app, args);
    status ??= typeof process.exitCode === 'number' ? process.exitCode : 0;
  } finally {
    outSpy.mockRestore();
    errSpy.mockRestore();
    setEnv(saved);
    process.exitCode = undefined;
  }
  return { status, stdout, stderr, out: stdout + stderr };
}

/**
 * {@link runCommandInProcess} as a user's shell without server settings would run it: in `cwd`,
 * with every `SUPERQODE_` variable and every `*API_KEY` (provider keys) unset for the run.
 */
export async function runCommandInProcessWithoutSettings(
  imports: NonNullable<ModuleMetadata['imports']>,
  args: string[],
  cwd: string,
): Promise<InProcessRun> {
  const cleared = Object.keys(process.env).filter(
    (k) => /API_KEY$/.test(k) || k.startsWith('SUPERQODE_'),
  );
  const before = process.cwd();
  process.chdir(cwd);
  try {
    return await runCommandInProcess(
      imports,
      args,
      Object.fromEntries(cleared.map((k) => [k, undefined])),
    );
  } finally {
    process.chdir(before);
  }
}
