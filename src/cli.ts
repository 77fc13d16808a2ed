#!/usr/bin/env node
import { hideSecretArgs } from './cli/argv-secrets';
import { fastAnswer } from './cli/fast-path';
import { PACKAGE_VERSION } from './modules/health/package-version';

/*
 * `superqode` CLI entry point. `--version` and `[command…] --help` are answered from this file's
 * light imports (node:fs, a pre-rendered help table); everything else loads a CLI container
 * (src/cli/run-cli.ts: Nest and the feature command modules the command line names) on demand.
 * Exit codes: 0 ok, 1 failure, 2 usage error.
 */
const answer = fastAnswer(process.argv.slice(2), PACKAGE_VERSION);
if (answer !== undefined) {
  process.stdout.write(answer);
} else {
  // Before anything else: `ps` shows no --token / --database-url value (src/cli/argv-secrets.ts).
  hideSecretArgs();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  void (require('./cli/run-cli') as typeof import('./cli/run-cli')).runCli();
}
