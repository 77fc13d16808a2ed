/**
 * A flag value refused by an `@Option` parser. Commander recognises it by `code`, prints one line
 * (`error: option '--days <days>' argument '0' is invalid. <message>`) and exits with `exitCode`.
 */
export class InvalidFlagError extends Error {
  /** Commander's code for a refused option argument (matched by value, not by class). */
  readonly code = 'commander.invalidArgument';
  /** Process exit code: 2, a usage error. */
  readonly exitCode = 2;
}
