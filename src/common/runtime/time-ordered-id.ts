import { randomUUID } from 'node:crypto';

/**
 * A new RFC 9562 version 7 UUID: 48 bits of Unix time in ms, then 74 random bits (version and
 * variant bits as §5.7 lays them out), as a lowercase hyphenated string.
 *
 * Used for the task and context ids the server assigns (issue #14): ids that grow with time keep
 * the task store's primary-key and context indexes appending at their right edge, so a save dirties
 * a few B-tree pages instead of one random page per index (SQLite WAL: about half the CPU per
 * stored task, measured in `docs/performance.md`). The random part is the 74 bits of a
 * `crypto.randomUUID()` (its version-4 layout shares the variant bits), not a per-millisecond
 * counter as in the `uuid` package's `v7()`, so ids minted in the same millisecond are not
 * predictable from one another: a task id stays as hard to guess as it needs to be for a caller
 * that shares the anonymous scope.
 * @param nowMs - Time to encode, epoch ms (default `Date.now()`); values past 2^48 wrap.
 * @see RFC 9562 §5.7 (UUID Version 7), §6.9 (unguessability).
 */
export function timeOrderedId(nowMs: number = Date.now()): string {
  const time = (nowMs % 2 ** 48).toString(16).padStart(12, '0');
  // randomUUID(): xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; keep from the 3 hex digits after '4'.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}
