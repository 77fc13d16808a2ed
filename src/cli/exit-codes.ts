/** Exit codes of the `superqode` CLI: 0 done, 1 the command failed, 2 a usage error. */
export const CLI_EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** One of {@link CLI_EXIT}'s codes. */
export type CliExitCode = (typeof CLI_EXIT)[keyof typeof CLI_EXIT];
