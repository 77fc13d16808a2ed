import { UsageError } from './connection-flags';

/** Task ids and context ids as flags: 1-128 printable characters without spaces. */
const ID = /^[\x21-\x7e]{1,128}$/;

/**
 * `--idle-timeout SECONDS`: 0-86400 (0 = no bound).
 * @throws {UsageError} Anything else.
 */
export function parseIdleTimeout(v: string): number {
  const n = /^\d{1,5}$/.test(v) ? Number(v) : NaN;
  if (!(n >= 0 && n <= 86_400))
    throw new UsageError('--idle-timeout must be a whole number of seconds from 0 to 86400');
  return n;
}

/**
 * A task or context id flag (`--task`, `--context`).
 * @throws {UsageError} Empty, too long, or with spaces/control characters.
 */
export function parseId(flag: string, v: string): string {
  if (!ID.test(v)) throw new UsageError(`${flag} takes an id (1-128 printable characters)`);
  return v;
}

/** Help texts of the turn flags, shared by `connect a2a` and `a2a call`. */
export const TURN_HELP = {
  noStream: 'one blocking SendMessage even when the card offers streaming',
  noWait: 'return as soon as the task exists (returnImmediately) and print its id',
  idleTimeout: 'end a stream after this many seconds without an event, 0-86400 (default 300)',
  task: 'reply to this task (one waiting for input)',
} as const;
