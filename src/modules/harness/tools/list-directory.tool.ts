import { readdir, stat } from 'node:fs/promises';
import { z } from 'zod';
import { confineExisting } from './confine';
import { defineTool, failure } from './tool-support';

/** Entries listed at most; the rest are counted in a notice. */
export const MAX_DIRECTORY_ENTRIES = 2000;

/**
 * `list_directory {path='.'}`: one entry per line, sorted by name; directories end in `/`,
 * symbolic links in `@` (never followed). Refuses paths outside the working directory.
 */
export const listDirectoryTool = defineTool({
  name: 'list_directory',
  description:
    'List a directory in the working directory: one entry per line, directories end in "/", ' +
    'symbolic links in "@".',
  inputSchema: z.object({
    path: z.string().default('.').describe('Directory, relative to the working directory'),
  }),
  target: (input) => input.path,
  run: async (input, ctx) => {
    const confined = await confineExisting(ctx.workingDir, input.path);
    if (!confined.ok) return failure(confined.message);
    if (!(await stat(confined.path)).isDirectory())
      return failure(`${input.path} is not a directory`);
    const entries = (await readdir(confined.path, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    if (entries.length === 0) return { ok: true, output: '(empty directory)' };
    const lines = entries.slice(0, MAX_DIRECTORY_ENTRIES).map((entry) => {
      if (entry.isSymbolicLink()) return `${entry.name}@`;
      return entry.isDirectory() ? `${entry.name}/` : entry.name;
    });
    if (entries.length > MAX_DIRECTORY_ENTRIES) {
      lines.push(`[${entries.length - MAX_DIRECTORY_ENTRIES} more entries not shown]`);
    }
    return { ok: true, output: lines.join('\n') };
  },
});
