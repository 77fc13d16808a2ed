import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { confineForWrite } from './confine';
import { openForOverwrite, refuseGitWrite } from './confined-files';
import { defineTool, failure } from './tool-support';

/**
 * `write_file {path, content}`: creates or overwrites a file (UTF-8), creating missing parent
 * directories inside the working directory. Content over `limits.max_input_bytes` is refused,
 * never truncated. Refuses paths (or symlinked ancestors) that lead outside the working
 * directory, directories, files with more than one hard link, and `.git/` unless
 * `execution_policy.allow_git_writes`.
 */
export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create or overwrite a file in the working directory with the given content; missing ' +
    'parent directories are created.',
  inputSchema: z.object({
    path: z.string().min(1).describe('File path, relative to the working directory'),
    content: z.string().describe('The complete new file content'),
  }),
  target: (input) => input.path,
  run: async (input, ctx) => {
    const bytes = Buffer.byteLength(input.content);
    const max = ctx.spec.limits.max_input_bytes;
    if (bytes > max) return failure(`content is ${bytes} bytes; the limit is ${max} bytes`);
    const confined = await confineForWrite(ctx.workingDir, input.path);
    if (!confined.ok) return failure(confined.message);
    const protectedGit = refuseGitWrite(ctx.spec, confined.rel);
    if (protectedGit) return failure(protectedGit);
    const existing = await stat(confined.path).catch(() => undefined);
    if (existing?.isDirectory()) return failure(`${input.path} is a directory`);
    await mkdir(path.dirname(confined.path), { recursive: true });
    const file = await openForOverwrite(confined.path, input.path);
    if (!file.ok) return failure(file.message);
    try {
      await file.handle.truncate(0);
      await file.handle.writeFile(input.content, 'utf8');
    } finally {
      await file.handle.close();
    }
    return { ok: true, output: `wrote ${bytes} bytes to ${confined.rel}` };
  },
});
