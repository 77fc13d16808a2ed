import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { isServerFile } from '../sandbox/sandbox-host';
import { z } from 'zod';
import { workingRoot } from './confine';
import { decidePermission } from './permission';
import { defineTool, failure } from './tool-support';

/** Matches listed at most. */
export const MAX_GLOB_RESULTS = 1000;

/** Absolute patterns, also after brace expansion (`{/etc,x}`), and Windows drive letters. */
const ABSOLUTE_PATTERN = /(^|[{,])\s*\/|^[A-Za-z]:|^\\/;

/**
 * `glob {pattern}`: files under the working directory matching a fast-glob pattern, sorted,
 * relative paths one per line. Symlinked directories are not traversed and results whose
 * directory resolves outside the working directory are dropped; absolute patterns and `..`
 * are refused. Dotfiles match only when the pattern names the dot (`.github/**`). Files that
 * permission rules do not allow for `glob` are left out.
 */
export const globTool = defineTool({
  name: 'glob',
  description:
    'Find files in the working directory by glob pattern (e.g. "src/**/*.ts"); returns ' +
    'relative paths, one per line.',
  inputSchema: z.object({
    pattern: z.string().min(1).describe('Glob pattern relative to the working directory'),
  }),
  target: (input) => input.pattern,
  run: async (input, ctx) => {
    if (ABSOLUTE_PATTERN.test(input.pattern))
      return failure(`absolute glob patterns are not allowed: ${input.pattern}`);
    if (input.pattern.includes('..'))
      return failure(`".." is not allowed in glob patterns: ${input.pattern}`);
    const root = await workingRoot(ctx.workingDir);
    const insideDir = directoryCheck(root);
    const found: string[] = [];
    let more = false;
    // fast-glob (with micromatch, ~50 modules) loaded on the first glob call, not with the harness.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy by design (issue #13)
    const fg = require('fast-glob') as typeof import('fast-glob');
    const stream = fg.stream(input.pattern, {
      cwd: root,
      followSymbolicLinks: false,
      suppressErrors: true,
    });
    for await (const entry of stream) {
      if (ctx.signal.aborted) return failure('glob cancelled');
      const rel = String(entry);
      if (isServerFile(root, path.resolve(root, rel))) continue;
      if (!(await insideDir(rel)) || (await decidePermission(ctx.spec, 'glob', rel)) !== 'allow')
        continue;
      if (found.length === MAX_GLOB_RESULTS) {
        more = true;
        break;
      }
      found.push(rel);
    }
    if (found.length === 0) return { ok: true, output: 'no files match' };
    found.sort();
    if (more) found.push(`[more than ${MAX_GLOB_RESULTS} files match; narrow the pattern]`);
    return { ok: true, output: found.join('\n') };
  },
});

/** Whether a result's directory really lies inside `root` (cached per directory). */
function directoryCheck(root: string): (rel: string) => Promise<boolean> {
  const cache = new Map<string, Promise<boolean>>();
  return (rel) => {
    const absolute = path.resolve(root, rel);
    const relToRoot = path.relative(root, absolute);
    if (relToRoot.startsWith('..') || path.isAbsolute(relToRoot)) return Promise.resolve(false);
    const dir = path.dirname(absolute);
    let inside = cache.get(dir);
    if (!inside) {
      inside = realpath(dir).then(
        (real) => real === root || real.startsWith(root + path.sep),
        () => false,
      );
      cache.set(dir, inside);
    }
    return inside;
  };
}
