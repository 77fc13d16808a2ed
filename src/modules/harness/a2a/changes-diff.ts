import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Largest diff kept as an artifact, bytes; longer diffs are cut with a marker line. */
export const MAX_DIFF_BYTES = 512 * 1024;

/**
 * Unified diff of the files a run changed (paths relative to `workingDir`): `git diff` for
 * tracked files, `git diff --no-index /dev/null <file>` for new ones. Empty when the working
 * directory is not a git checkout or nothing differs. Runs git with a 10 s timeout and no shell.
 */
export async function changesDiff(workingDir: string, paths: string[]): Promise<string> {
  if (paths.length === 0) return '';
  const git = (args: string[]) =>
    run('git', args, { cwd: workingDir, timeout: 10_000, maxBuffer: 4 * MAX_DIFF_BYTES }).then(
      (r) => r.stdout,
      (err: { code?: number; stdout?: string }) => (err.code === 1 ? (err.stdout ?? '') : ''),
    );
  if ((await git(['rev-parse', '--is-inside-work-tree'])).trim() !== 'true') return '';
  const tracked = new Set((await git(['ls-files', '--', ...paths])).split('\n').filter(Boolean));
  let diff = tracked.size > 0 ? await git(['diff', '--no-color', '--', ...tracked]) : '';
  for (const p of paths.filter((x) => !tracked.has(x))) {
    diff += await git(['diff', '--no-color', '--no-index', '--', '/dev/null', p]);
  }
  return diff.length > MAX_DIFF_BYTES ? `${diff.slice(0, MAX_DIFF_BYTES)}\n[diff cut at ${MAX_DIFF_BYTES} bytes]\n` : diff;
}
