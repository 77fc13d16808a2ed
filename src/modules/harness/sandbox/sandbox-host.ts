import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ETC_ENTRIES, type MaskedPath, SYSTEM_DIRS, type SystemEntry } from './bwrap-args';

/** The server's state directory inside a working directory (default home of both stores). */
export const STATE_DIR = '.superqode';

/** SQLite side files that hold a store's data next to it. */
const SQLITE_SIDE_FILES = ['', '-wal', '-shm', '-journal'];

/** Server files (task store, ledger) never visible in a sandbox; see {@link hideFromSandbox}. */
const hiddenFiles = new Set<string>();

/**
 * Registers server files that sandboxed processes must not see (the task store and the ledger,
 * with their SQLite side files), for every sandbox started by this process. Files outside the
 * working directory are not mounted anyway; these matter when they live inside it.
 * @param files - Paths, absolute or relative to the server's cwd; null entries are ignored.
 */
export function hideFromSandbox(files: readonly (string | null | undefined)[]): void {
  for (const file of files) if (file) hiddenFiles.add(resolve(file));
}

/** {@link SYSTEM_DIRS} that exist on this host, symlinks (merged /usr) kept as symlinks. */
export function systemEntries(): SystemEntry[] {
  return SYSTEM_DIRS.flatMap((path): SystemEntry[] => {
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) return [{ path, symlinkTarget: readlinkSync(path) }];
      return stat.isDirectory() ? [{ path }] : [];
    } catch {
      return [];
    }
  });
}

/** {@link ETC_ENTRIES} that exist on this host (symlinks resolved by bwrap). */
export function etcEntries(): string[] {
  return ETC_ENTRIES.filter((path) => existsSync(path));
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * What to hide inside `workingDir`: its {@link STATE_DIR} (as an empty tmpfs) when present, and
 * every registered server file there with its SQLite side files (as /dev/null) when present.
 * Only existing paths are masked: bwrap would otherwise create mount points in the checkout.
 * @param workingDir - Realpath of the working directory.
 */
export function maskedPaths(workingDir: string): MaskedPath[] {
  const masked: MaskedPath[] = [];
  const stateDir = join(workingDir, STATE_DIR);
  if (existsSync(stateDir)) masked.push({ path: stateDir, kind: 'dir' });
  for (const file of hiddenFiles) {
    const real = join(realOrSelf(dirname(file)), file.slice(dirname(file).length + 1));
    if (!inside(workingDir, real) || inside(stateDir, real)) continue;
    for (const suffix of SQLITE_SIDE_FILES) {
      const path = real + suffix;
      if (existsSync(path) && statSync(path).isFile()) masked.push({ path, kind: 'file' });
    }
  }
  return masked;
}

/**
 * Whether a real path is one of the server's own files that tools must never read or write,
 * under every sandbox mode (the in-process file tools do not run in bubblewrap): anything in the
 * working directory's {@link STATE_DIR}, or a registered server file (task store, ledger) with
 * its SQLite side files.
 * @param workingDir - Realpath of the working directory.
 * @param real - Realpath (or would-be realpath, for a new file) the tool is about to use.
 */
export function isServerFile(workingDir: string, real: string): boolean {
  if (inside(join(workingDir, STATE_DIR), real)) return true;
  for (const file of hiddenFiles) {
    const resolved = join(realOrSelf(dirname(file)), file.slice(dirname(file).length + 1));
    if (SQLITE_SIDE_FILES.some((suffix) => real === resolved + suffix)) return true;
  }
  return false;
}
