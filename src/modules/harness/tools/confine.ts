import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isServerFile } from '../sandbox/sandbox-host';

/**
 * A path checked against the working directory.
 * - ok: `path` is the absolute real path to operate on (symlinks resolved), `rel` the same
 *   relative to the working directory's realpath (`.` for the directory itself).
 * - refused: `message` says why, e.g. `path escapes the working directory: ../x`.
 */
export type Confined = { ok: true; path: string; rel: string } | { ok: false; message: string };

interface Root {
  lexical: string;
  real: string;
}

const refuse = (message: string): Confined => ({ ok: false, message });

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

async function rootOf(workingDir: string): Promise<Root> {
  const lexical = path.resolve(workingDir);
  return { lexical, real: await realpath(lexical) };
}

/** Lexical check: `..` and absolute paths must stay under the working directory. */
function resolveLexically(root: Root, input: string): string | Confined {
  if (input.includes('\0')) return refuse(`path contains a NUL byte: ${JSON.stringify(input)}`);
  const absolute = path.resolve(root.lexical, input === '' ? '.' : input);
  if (isInside(root.lexical, absolute) || isInside(root.real, absolute)) return absolute;
  return refuse(`path escapes the working directory: ${input}`);
}

function confined(root: Root, real: string, input: string): Confined {
  if (!isInside(root.real, real)) {
    return refuse(`path escapes the working directory through a symbolic link: ${input}`);
  }
  if (isServerFile(root.real, real)) {
    return refuse(`refusing the server's own state (task store, ledger, .superqode/): ${input}`);
  }
  return { ok: true, path: real, rel: path.relative(root.real, real) || '.' };
}

/**
 * Confines a path that must exist (reads, listings, edits). Every symlink on the way,
 * including the final component, is resolved and the result must lie inside
 * `realpath(workingDir)`.
 * @param workingDir - The tool context's working directory.
 * @param input - The path the model gave, relative to `workingDir` or absolute.
 * @returns A refusal (escape, missing file) rather than throwing for expected failures.
 * @throws {Error} Only if `workingDir` itself cannot be resolved.
 */
export async function confineExisting(workingDir: string, input: string): Promise<Confined> {
  const root = await rootOf(workingDir);
  const absolute = resolveLexically(root, input);
  if (typeof absolute !== 'string') return absolute;
  try {
    return confined(root, await realpath(absolute), input);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return refuse(`no such file or directory: ${input}`);
    throw error;
  }
}

/**
 * Confines a path about to be written, which may not exist yet. The nearest existing
 * ancestor (the path itself when it exists, following a final symlink) is resolved and must
 * lie inside `realpath(workingDir)`; missing components are appended to it. A dangling
 * symlink is refused: writing through it could create a file anywhere.
 * @param workingDir - The tool context's working directory.
 * @param input - The path the model gave, relative to `workingDir` or absolute.
 * @returns The real path to create or overwrite, or a refusal.
 * @throws {Error} Only if `workingDir` itself cannot be resolved.
 */
export async function confineForWrite(workingDir: string, input: string): Promise<Confined> {
  const root = await rootOf(workingDir);
  const absolute = resolveLexically(root, input);
  if (typeof absolute !== 'string') return absolute;
  const missing: string[] = [];
  let probe = absolute;
  while (!(await exists(probe))) {
    missing.unshift(path.basename(probe));
    probe = path.dirname(probe);
  }
  let real: string;
  try {
    real = await realpath(probe);
  } catch {
    return refuse(`refusing to write through a dangling symbolic link: ${input}`);
  }
  return confined(root, path.join(real, ...missing), input);
}

async function exists(candidate: string): Promise<boolean> {
  try {
    await lstat(candidate);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * The working-directory real path a tool's paths are confined to.
 * @param workingDir - The tool context's working directory.
 * @throws {Error} `workingDir` does not exist.
 */
export async function workingRoot(workingDir: string): Promise<string> {
  return (await rootOf(workingDir)).real;
}
