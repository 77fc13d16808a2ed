import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import picomatch from 'picomatch';
import type { HarnessSpec } from '../spec/harness-spec.schema';

const { O_RDONLY, O_RDWR, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

/** A file opened for a tool, or why it was refused. */
export type OpenedFile = { ok: true; handle: FileHandle } | { ok: false; message: string };

const isGitPath = picomatch(['.git', '.git/**', '**/.git', '**/.git/**'], {
  dot: true,
  nocase: true,
});

/**
 * The built-in write protection of `.git/`: a path (relative to the working directory's
 * realpath, or as requested) inside any `.git` directory, unless the spec sets
 * `execution_policy.allow_git_writes`.
 * @param spec - A validated spec.
 * @param rel - Working-directory-relative path, `/`-separated.
 * @returns The refusal message, or `undefined` when the write may go ahead.
 */
export function refuseGitWrite(spec: HarnessSpec, rel: string): string | undefined {
  if (spec.execution_policy.allow_git_writes || !isGitPath(rel)) return undefined;
  return `refusing to write under .git/ (${rel}); set execution_policy.allow_git_writes to allow it`;
}

function refusal(message: string): OpenedFile {
  return { ok: false, message };
}

async function opened(
  flags: number,
  real: string,
  input: string,
  forWrite: boolean,
): Promise<OpenedFile> {
  let handle: FileHandle;
  try {
    handle = await open(real, flags | O_NOFOLLOW, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return refusal(`${input} became a symbolic link; refusing to follow it`);
    if (code === 'EISDIR') return refusal(`${input} is a directory`);
    throw error;
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    return refusal(`${input} is not a regular file`);
  }
  if (forWrite && info.nlink > 1) {
    await handle.close();
    return refusal(
      `${input} has ${info.nlink} hard links; refusing to write a file shared with other paths`,
    );
  }
  return { ok: true, handle };
}

/**
 * Opens a confined file for reading without following a symlink in its last component (one
 * swapped in after confinement gives `ELOOP`, refused). Directory components are not
 * re-checked: a swap there between confinement and open remains possible.
 * @param real - The confined real path.
 * @param input - The path as the model gave it, for messages.
 * @returns An open handle (the caller closes it) or a refusal (not a regular file, symlink).
 */
export function openForRead(real: string, input: string): Promise<OpenedFile> {
  return opened(O_RDONLY, real, input, false);
}

/**
 * Opens a confined existing file for reading and writing, like {@link openForRead}, and
 * refuses files with more than one hard link (another name, maybe outside the working
 * directory, would see the write).
 * @param real - The confined real path.
 * @param input - The path as the model gave it, for messages.
 */
export function openForUpdate(real: string, input: string): Promise<OpenedFile> {
  return opened(O_RDWR, real, input, true);
}

/**
 * Opens a confined path for overwriting: a new file is created exclusively (`O_EXCL`, so a
 * symlink planted meanwhile is not followed); an existing one is opened as in
 * {@link openForUpdate}. The caller truncates and writes through the handle.
 * @param real - The confined real path.
 * @param input - The path as the model gave it, for messages.
 */
export async function openForOverwrite(real: string, input: string): Promise<OpenedFile> {
  try {
    return { ok: true, handle: await open(real, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return opened(O_WRONLY, real, input, true);
}
