import { Command, CommandRunner } from 'nest-commander';
import {
  ExportHarnessSessionCommand,
  ListHarnessRunsCommand,
  ShowHarnessRunCommand,
  ValidateHarnessCommand,
} from './harness-ledger.commands';
import { ResumeHarnessCommand, RunHarnessCommand } from './run-harness.command';

/** `superqode harness`: parent of the harness subcommands; alone it prints usage and exits 2. */
@Command({
  name: 'harness',
  description:
    'Run HarnessSpecs and inspect the harness ledger: run, resume, validate, runs, show, export',
  subCommands: [
    RunHarnessCommand,
    ResumeHarnessCommand,
    ValidateHarnessCommand,
    ListHarnessRunsCommand,
    ShowHarnessRunCommand,
    ExportHarnessSessionCommand,
  ],
})
export class HarnessCommand extends CommandRunner {
  async run(): Promise<void> {
    process.stdout.write(
      'Usage: superqode harness run|resume|validate|runs|show|export (see --help)\n',
    );
    process.exitCode = 2;
  }
}

/**
 * Every provider of the `harness` command tree, for a CLI module's `providers`. The commands
 * open a HarnessModule context on `--harness-store` when they run, so they need no module import.
 */
export const HARNESS_COMMANDS = [
  HarnessCommand,
  RunHarnessCommand,
  ResumeHarnessCommand,
  ValidateHarnessCommand,
  ListHarnessRunsCommand,
  ShowHarnessRunCommand,
  ExportHarnessSessionCommand,
];
