import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { confineExisting, workingRoot } from './confine';
import { isServerFile } from '../sandbox/sandbox-host';
import { LineMatcher, RegexTimeoutError } from './line-matcher';
import { decidePermission } from './permission';
import { defineTool, failure, looksBinary } from './tool-support';

/** Matching lines reported at most. */
export const MAX_GREP_MATCHES = 200;
/** Larger files are skipped (bytes). */
export const MAX_GREP_FILE_BYTES = 1024 * 1024;
/** Files scanned at most per call. */
export const MAX_GREP_FILES = 20_000;
/** Characters of a matching line shown. */
const MAX_LINE_CHARS = 400;
/** Directory names never descended into (they can still be searched explicitly via `path`). */
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

const inputSchema = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression (no flags)'),
  path: z.string().default('.').describe('File or directory to search, relative'),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts", "src/**"'),
});

/**
 * `grep {pattern, path='.', glob?}`: lines matching a JavaScript regex, as `file:line: text`
 * (file relative to the working directory, line 1-based). Symlinks are not followed; `.git`
 * and `node_modules` are skipped unless `path` points into them; binary files and files over
 * {@link MAX_GREP_FILE_BYTES} are skipped, as are files permission rules do not allow for
 * `grep`. At most {@link MAX_GREP_MATCHES} matches; a regex that runs away (catastrophic
 * backtracking) is stopped after a second instead of blocking the server.
 */
export const grepTool = defineTool({
  name: 'grep',
  description:
    'Search file contents in the working directory with a JavaScript regular expression; ' +
    'returns "file:line: text" lines.',
  inputSchema,
  target: (input) => input.path,
  run: async (input, ctx) => {
    let matcher: LineMatcher;
    try {
      matcher = new LineMatcher(input.pattern);
    } catch (error) {
      return failure(`invalid regular expression: ${(error as Error).message}`);
    }
    const confined = await confineExisting(ctx.workingDir, input.path);
    if (!confined.ok) return failure(confined.message);
    const root = await workingRoot(ctx.workingDir);
    const include = input.glob ? picomatch(input.glob, { dot: true, basename: true }) : () => true;
    const hits: string[] = [];
    let scanned = 0;
    for await (const file of walkFiles(confined.path)) {
      if (ctx.signal.aborted) return failure('grep cancelled');
      const rel = path.relative(root, file);
      if (isServerFile(root, file)) continue;
      if (!include(rel) || (await decidePermission(ctx.spec, 'grep', rel)) !== 'allow') continue;
      if (++scanned > MAX_GREP_FILES) return report(hits, `stopped after ${MAX_GREP_FILES} files`);
      const text = await readSmallText(file);
      if (text === undefined) continue;
      try {
        hits.push(
          ...matcher.match(text, MAX_GREP_MATCHES - hits.length).map((hit) => format(rel, hit)),
        );
      } catch (error) {
        if (error instanceof RegexTimeoutError) return failure(`${error.message} (on ${rel})`);
        throw error;
      }
      if (hits.length >= MAX_GREP_MATCHES)
        return report(hits, `stopped at ${MAX_GREP_MATCHES} matches`);
    }
    return report(hits);
  },
});

function format(rel: string, hit: { line: number; text: string }): string {
  const text = hit.text.replace(/\r$/, '');
  const shown = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
  return `${rel}:${hit.line}: ${shown}`;
}

function report(hits: string[], stopped?: string) {
  if (hits.length === 0)
    return { ok: true, output: stopped ? `no matches (${stopped})` : 'no matches' };
  return { ok: true, output: hits.join('\n') + (stopped ? `\n[${stopped}]` : '') };
}

/** Regular files under `start` (or `start` itself), sorted, never following symlinks. */
async function* walkFiles(start: string): AsyncGenerator<string> {
  const info = await stat(start);
  if (info.isFile()) {
    yield start;
    return;
  }
  const entries = await readdir(start, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(start, entry.name);
    if (entry.isFile()) yield full;
    else if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) yield* walkFiles(full);
  }
}

/** The file as UTF-8 text, or `undefined` when it is too large, binary or unreadable. */
async function readSmallText(file: string): Promise<string | undefined> {
  // O_NOFOLLOW: a file swapped for a symlink after the walk saw it is skipped, not followed.
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    if (size > MAX_GREP_FILE_BYTES) return undefined;
    const content = await handle.readFile();
    return looksBinary(content) ? undefined : content.toString('utf8');
  } finally {
    await handle.close();
  }
}
