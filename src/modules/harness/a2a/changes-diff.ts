import type { SandboxPolicy } from '../sandbox/sandbox-command';
import { LOCAL_GIT_POLICY, runGit } from '../sandbox/safe-git';

/** Largest diff kept as an artifact, bytes; longer diffs are cut with a marker line. */
export const MAX_DIFF_BYTES = 512 * 1024;

/**
 * Unified diff of the files a run changed (paths relative to `workingDir`): `git diff` for
 * tracked files, `git diff --no-index /dev/null <file>` for new ones. Empty when the working
 * directory is not a git checkout or nothing differs. Runs git with a 10 s timeout and no shell,
 * hardened and in the spec's sandbox (../sandbox/safe-git.ts), without external diff drivers or
 * textconv filters.
 * @param sandbox - The spec's sandbox policy (default: local).
 */
export async function changesDiff(
  workingDir: string,
  paths: string[],
  sandbox: SandboxPolicy = LOCAL_GIT_POLICY,
): Promise<string> {
  if (paths.length === 0) return '';
  const git = (args: string[]) =>
    runGit(workingDir, args, sandbox, { timeoutMs: 10_000, maxBuffer: 4 * MAX_DIFF_BYTES }).then(
      (stdout) => stdout,
      (err: { code?: number; stdout?: string }) => (err.code === 1 ? (err.stdout ?? '') : ''),
    );
  if ((await git(['rev-parse', '--is-inside-work-tree'])).trim() !== 'true') return '';
  const tracked = new Set((await git(['ls-files', '--', ...paths])).split('\n').filter(Boolean));
  const diffArgs = ['diff', '--no-color', '--no-ext-diff', '--no-textconv'];
  let diff = tracked.size > 0 ? await git([...diffArgs, '--', ...tracked]) : '';
  for (const p of paths.filter((x) => !tracked.has(x))) {
    diff += await git([...diffArgs, '--no-index', '--', '/dev/null', p]);
  }
  return diff.length > MAX_DIFF_BYTES
    ? `${diff.slice(0, MAX_DIFF_BYTES)}\n[diff cut at ${MAX_DIFF_BYTES} bytes]\n`
    : diff;
}
