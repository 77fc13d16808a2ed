import 'reflect-metadata';
import { INestApplicationContext, Logger } from '@nestjs/common';
import type { Command } from 'commander';
import { CommandFactory, CommandRunnerService } from 'nest-commander';
import { CliModule } from '../cli.module';
import { PACKAGE_VERSION } from '../modules/health/package-version';
import { cliExitCodeFor } from '../common/errors/error-map';
import { CLI_EXIT } from './exit-codes';
import { envFileFlagOf } from './env-file-flag';
import { useEnvFile } from '../config/process-env';

/** What `CommandFactory` accepts (nest-commander does not export the type by name). */
type CommandFactoryRunOptions = Extract<
  Parameters<typeof CommandFactory.createWithoutRunning>[1],
  { cliName?: string }
>;

/** Exit codes of every `superqode` command (README, "CLI"): 0 ok, 1 failure, 2 usage error. */
export { CLI_EXIT } from './exit-codes';

/**
 * The exit code for a commander exit: help asked for (`--help`, `help [command]`) and version 0;
 * anything else commander reports (unknown option or command, missing argument or option, bad
 * choice, a command group without its subcommand: help shown as an error) is a usage error, 2.
 */
export function commanderExitCode(err: Error & { code?: string; exitCode?: number }): number {
  const asked =
    err.code === 'commander.helpDisplayed' ||
    err.code === 'commander.version' ||
    (err.code === 'commander.help' && err.exitCode === 0);
  return asked ? CLI_EXIT.ok : CLI_EXIT.usage;
}

/** Ends the process for a commander exit; commander has printed its own message already. */
function exitForCommander(err: Error & { code?: string }): never {
  if (!err.code?.startsWith('commander.')) process.stderr.write(`${err.message}\n`);
  process.exit(commanderExitCode(err));
}

/**
 * nest-commander options of the CLI. A failing command logs one line and exits 1 (the default
 * handler only prints, which would exit 0). Help is wrapped at 80 columns on every terminal, so
 * the pre-rendered help of {@link ./fast-path.ts} is byte-identical to commander's.
 */
export const CLI_OPTIONS: CommandFactoryRunOptions = {
  logger: ['error', 'warn'],
  cliName: 'superqode',
  version: PACKAGE_VERSION,
  helpConfiguration: { helpWidth: 80 },
  serviceErrorHandler: (err: Error) => {
    new Logger('superqode').error(err.message);
    process.exitCode = cliExitCodeFor(err);
  },
  errorHandler: exitForCommander,
};

/** The commander tree nest-commander built (the root `superqode` command). */
export function commanderOf(app: INestApplicationContext): Command {
  // nest-commander keeps the root in a private field and does not export its injection token.
  return (app.get(CommandRunnerService) as unknown as { commander: Command }).commander;
}

/**
 * Builds the CLI container ({@link CliModule}) without running a command, names the root
 * `superqode` and gives every subcommand the root's exit handling (commander does not pass
 * `exitOverride` down to commands built separately, so their usage errors exited 1).
 * @param options - nest-commander options; default {@link CLI_OPTIONS}.
 * @param words - The command line (`process.argv.slice(2)`): only the feature modules of the
 *   command it names are loaded (`CliModule.for`); omitted: every command.
 */
export async function createCli(
  options: CommandFactoryRunOptions = CLI_OPTIONS,
  words?: readonly string[],
): Promise<INestApplicationContext> {
  // a2a-keys reads its settings as its container is built: its env file must be known by then.
  const envFile = words?.[0] === 'a2a-keys' ? envFileFlagOf(words) : undefined;
  if (envFile !== undefined) useEnvFile(envFile);
  const app = await CommandFactory.createWithoutRunning(CliModule.for(words), options);
  const root = commanderOf(app).name('superqode');
  if (options.errorHandler) exitOverrideEverywhere(root, options.errorHandler);
  return app;
}

/** Sets `handler` as the exit override of `root` and of every command below it. */
export function exitOverrideEverywhere(
  root: Command,
  handler: (err: Error & { code?: string }) => void,
): void {
  root.exitOverride(handler);
  root.commands.forEach((cmd) => exitOverrideEverywhere(cmd, handler));
}

/**
 * Runs the command `argv` names (`process.argv` shape) in a container of that command's feature
 * modules only, then closes it.
 */
export async function runCli(argv: string[] = process.argv): Promise<void> {
  const app = await createCli(CLI_OPTIONS, argv.slice(2));
  try {
    await app.get(CommandRunnerService).run(argv);
  } finally {
    await app.close();
  }
}
