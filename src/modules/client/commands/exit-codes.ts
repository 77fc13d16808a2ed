/**
 * Exit codes of the client commands (`connect a2a`, `a2a …`); the README's table lists them.
 * 0 and 1 as usual; 2 for every usage error (commander's and our flag checks).
 */
export const EXIT = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  /** The task waits for a reply (`input-required` / `auth-required`) and no TTY could ask for it. */
  INPUT_REQUIRED: 3,
  /** The client stopped waiting (time bound or idle stream); the task may still run on the agent. */
  TIMEOUT: 4,
} as const;
