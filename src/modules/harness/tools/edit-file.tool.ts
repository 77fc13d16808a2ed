import type { FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { confineExisting } from './confine';
import { openForUpdate, refuseGitWrite } from './confined-files';
import { MAX_READ_FILE_BYTES } from './read-file.tool';
import { defineTool, failure, looksBinary } from './tool-support';

const inputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the working directory'),
  old_string: z.string().min(1).describe('Exact text to replace (must be unique)'),
  new_string: z.string().describe('Replacement text'),
  replace_all: z.boolean().default(false).describe('Replace every occurrence'),
});

/**
 * `edit_file {path, old_string, new_string, replace_all=false}`: exact (non-regex) text
 * replacement in an existing text file. Fails when `old_string` is absent or, without
 * `replace_all`, occurs more than once; `new_string` over `limits.max_input_bytes` is refused.
 * `$` sequences in `new_string` are literal. Refuses files with more than one hard link and
 * `.git/` unless `execution_policy.allow_git_writes`.
 */
export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace exact text in a file in the working directory. old_string must occur exactly ' +
    'once unless replace_all is true; include surrounding lines to make it unique.',
  inputSchema,
  target: (input) => input.path,
  run: async (input, ctx) => {
    const max = ctx.spec.limits.max_input_bytes;
    if (Buffer.byteLength(input.new_string) > max)
      return failure(`new_string exceeds ${max} bytes`);
    if (input.old_string === input.new_string)
      return failure('old_string and new_string are identical');
    const confined = await confineExisting(ctx.workingDir, input.path);
    if (!confined.ok) return failure(confined.message);
    const protectedGit = refuseGitWrite(ctx.spec, confined.rel);
    if (protectedGit) return failure(protectedGit);
    const file = await openForUpdate(confined.path, input.path);
    if (!file.ok) return failure(file.message);
    try {
      return await replaceIn(file.handle, input, confined.rel);
    } finally {
      await file.handle.close();
    }
  },
});

async function replaceIn(handle: FileHandle, input: z.infer<typeof inputSchema>, rel: string) {
  if ((await handle.stat()).size > MAX_READ_FILE_BYTES)
    return failure(`${input.path} is too large to edit`);
  const raw = await handle.readFile();
  if (looksBinary(raw)) return failure(`${input.path} looks binary; only text files can be edited`);
  const parts = raw.toString('utf8').split(input.old_string);
  const count = parts.length - 1;
  if (count === 0) return failure(`old_string not found in ${input.path}`);
  if (count > 1 && !input.replace_all) {
    return failure(
      `old_string occurs ${count} times in ${input.path}; add surrounding context to make it ` +
        'unique, or set replace_all',
    );
  }
  await handle.truncate(0);
  await handle.write(parts.join(input.new_string), 0, 'utf8');
  return {
    ok: true,
    output: `replaced ${count} occurrence${count === 1 ? '' : 's'} in ${rel}`,
  };
}
