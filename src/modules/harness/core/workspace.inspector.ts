import { Injectable } from '@nestjs/common';
import { open, readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MAX_INSTRUCTION_FILE_BYTES, MAX_TRACKED_FILES } from '../harness.constants';
import type { SandboxPolicy } from '../sandbox/sandbox-command';
import { LOCAL_GIT_POLICY, runGit } from '../sandbox/safe-git';

/** Directories never walked outside git (dependencies, VCS data, our own state). */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.superqode']);

/** Our own state (the default ledger lives here): never reported as a run's artifact. */
const STATE_DIR_PREFIX = '.superqode/';

/** Fingerprints (`mtime:size`, or absent) of the files that may change, by relative path. */
export type WorkspaceSnapshot = ReadonlyMap<string, string>;

/** One instruction file found in the working directory. */
export interface InstructionFile {
  /** As named in `context.instruction_files`. */
  file: string;
  /** UTF-8 text, at most {@link MAX_INSTRUCTION_FILE_BYTES} bytes. */
  text: string;
}

/** `dir`-relative path with `/` separators. */
function relativePath(dir: string, file: string): string {
  return relative(dir, file).split(sep).join('/');
}

/** `mtimeMs:size` of a file, or `absent`. */
async function fingerprint(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return 'absent';
  }
}

/**
 * Filesystem reads of the run loop: instruction files for the system prompt, and before/after
 * snapshots of the working directory to list the files a run changed.
 */
@Injectable()
export class WorkspaceInspector {
  /**
   * Reads the instruction files that exist in `dir`, in the given order; names that are
   * absolute or leave `dir` are skipped, each file is cut at {@link MAX_INSTRUCTION_FILE_BYTES}.
   */
  async instructionFiles(dir: string, names: readonly string[]): Promise<InstructionFile[]> {
    const found: InstructionFile[] = [];
    for (const name of names) {
      const file = resolve(dir, name);
      if (isAbsolute(name) || relativePath(dir, file).startsWith('..')) continue;
      const text = await this.readHead(file, MAX_INSTRUCTION_FILE_BYTES);
      if (text !== null) found.push({ file: name, text });
    }
    return found;
  }

  /**
   * Fingerprints of the files a run may change: inside a git checkout the files `git status`
   * lists (ignored files excluded; git hardened and run in the spec's sandbox, see
   * ../sandbox/safe-git.ts); elsewhere every file up to {@link MAX_TRACKED_FILES}.
   * @param sandbox - The spec's sandbox policy (default: local).
   * @returns null when the directory is too large to track outside git.
   */
  async snapshot(
    dir: string,
    sandbox: SandboxPolicy = LOCAL_GIT_POLICY,
  ): Promise<WorkspaceSnapshot | null> {
    const listed = (await this.gitDirtyPaths(dir, sandbox)) ?? (await this.walk(dir));
    if (listed === null) return null;
    const paths = listed.filter((p) => !p.startsWith(STATE_DIR_PREFIX));
    const entries = await Promise.all(
      paths.map(async (p) => [p, await fingerprint(join(dir, p))] as const),
    );
    return new Map(entries);
  }

  /**
   * Paths (sorted, `/`-separated, dir-relative) created, changed or deleted since `before`:
   * present in one snapshot only, or with another fingerprint. Empty when untracked.
   */
  async changedSince(
    dir: string,
    before: WorkspaceSnapshot | null,
    sandbox: SandboxPolicy = LOCAL_GIT_POLICY,
  ): Promise<string[]> {
    const after = before === null ? null : await this.snapshot(dir, sandbox);
    if (before === null || after === null) return [];
    const paths = new Set([...before.keys(), ...after.keys()]);
    return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
  }

  /** Files `git status` reports under `dir` (dir-relative), or null outside a git checkout. */
  private async gitDirtyPaths(dir: string, sandbox: SandboxPolicy): Promise<string[] | null> {
    try {
      const opts = { maxBuffer: 64 * 1024 * 1024, timeoutMs: 30_000 };
      const top = (await runGit(dir, ['rev-parse', '--show-toplevel'], sandbox, opts)).trim();
      const args = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.'];
      const stdout = await runGit(dir, args, sandbox, opts);
      const fields = stdout.split('\0').filter(Boolean);
      const paths: string[] = [];
      for (let i = 0; i < fields.length; i++) {
        const status = fields[i].slice(0, 2);
        paths.push(relativePath(dir, join(top, fields[i].slice(3))));
        if (status.startsWith('R') || status.startsWith('C'))
          paths.push(relativePath(dir, join(top, fields[++i])));
      }
      return paths;
    } catch {
      return null;
    }
  }

  /** Every file under `dir` but {@link SKIPPED_DIRS}; null beyond {@link MAX_TRACKED_FILES}. */
  private async walk(dir: string): Promise<string[] | null> {
    const files: string[] = [];
    const pending = [dir];
    while (pending.length > 0) {
      const current = pending.pop() as string;
      const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = join(current, entry.name);
        if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) pending.push(full);
        else if (entry.isFile()) files.push(relativePath(dir, full));
        if (files.length > MAX_TRACKED_FILES) return null;
      }
    }
    return files;
  }

  /** First `maxBytes` of a file as UTF-8, or null when it cannot be read. */
  private async readHead(file: string, maxBytes: number): Promise<string | null> {
    try {
      const handle = await open(file, 'r');
      try {
        const buffer = Buffer.alloc(maxBytes);
        const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
        return buffer.subarray(0, bytesRead).toString('utf8');
      } finally {
        await handle.close();
      }
    } catch {
      return null;
    }
  }
}
