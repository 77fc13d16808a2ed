import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';

/** The directory name of SuperQode's local state (stores, keys) inside a checkout. */
export const STATE_DIR_NAME = '.superqode';

/**
 * Creates `dir` (and its parents) like `mkdir -p`. When this call creates a `.superqode`
 * directory on the way, it also writes `.superqode/.gitignore` containing `*`, so the state never
 * shows as untracked in the user's checkout (as `.venv` and `node_modules/.cache` do). An existing
 * `.superqode` directory is left as it is.
 * @throws {Error} As `mkdirSync` (permissions, a file in the way).
 */
export function makeStateDir(dir: string, mode?: number): void {
  const absolute = resolve(dir);
  const firstCreated = mkdirSync(absolute, { recursive: true, mode });
  if (firstCreated === undefined) return;
  for (let d = absolute; d.length >= firstCreated.length; d = dirname(d)) {
    if (basename(d) === STATE_DIR_NAME) {
      writeFileSync(`${d}${sep}.gitignore`, '*\n', { flag: 'wx' });
      return;
    }
    if (d === dirname(d)) return;
  }
}
