import { CLI_HELP } from './help-snapshot';

/** What the fast path answers: the text for stdout (the exit code is 0). */
export type FastAnswer = string | undefined;

const HELP_FLAGS = new Set(['--help', '-h']);
const VERSION_FLAGS = new Set(['--version', '-V']);

/**
 * Answers `superqode --version` and `superqode [command…] --help` without loading Nest, the
 * A2A SDK, TypeORM or the AI SDK (issue #13: under 300 ms): the version from package.json,
 * help from {@link CLI_HELP}, pre-rendered from the real command tree (`src/cli/help-snapshot.spec.ts`
 * fails when it drifts; `node scripts/generate-cli-help.mjs` regenerates it).
 * @param argv - Arguments after the script (`process.argv.slice(2)`).
 * @param version - The package version.
 * @returns The text to print, or undefined when the full CLI must handle `argv` (any other
 *   shape: flags before `--help`, unknown commands, `help <command>`).
 */
export function fastAnswer(argv: readonly string[], version: string): FastAnswer {
  if (argv.length === 1 && VERSION_FLAGS.has(argv[0])) return `${version}\n`;
  const last = argv[argv.length - 1];
  if (last === undefined || !HELP_FLAGS.has(last)) return undefined;
  const path = argv.slice(0, -1);
  if (path.some((word) => word.startsWith('-'))) return undefined;
  return Object.prototype.hasOwnProperty.call(CLI_HELP, path.join(' '))
    ? CLI_HELP[path.join(' ')]
    : undefined;
}
