import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { confineExisting } from './confine';
import { openForRead } from './confined-files';
import type { ToolResult } from './harness-tool';
import { defineTool, failure, looksBinary } from './tool-support';

/** Files larger than this (bytes) are refused whole; grep or bash can still search them. */
export const MAX_READ_FILE_BYTES = 16 * 1024 * 1024;

/** Bytes kept free under the output cap for the continuation notice. */
const NOTICE_RESERVE_BYTES = 200;

const inputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the working directory'),
  offset: z.number().int().min(1).optional().describe('First line to return (1-based)'),
  limit: z.number().int().min(1).optional().describe('Maximum number of lines to return'),
});

/**
 * `read_file {path, offset?, limit?}`: a text file's content, exactly as stored (line endings
 * kept), optionally a window of lines. Output beyond `limits.max_output_bytes` ends with a
 * notice giving the `offset` to continue from. Refuses directories, binary files (NUL bytes),
 * files over {@link MAX_READ_FILE_BYTES} and paths outside the working directory.
 */
export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file in the working directory. Returns its exact content; use offset/limit ' +
    '(1-based lines) for large files.',
  inputSchema,
  target: (input) => input.path,
  run: async (input, ctx) => {
    const confined = await confineExisting(ctx.workingDir, input.path);
    if (!confined.ok) return failure(confined.message);
    if ((await stat(confined.path)).isDirectory())
      return failure(`${input.path} is a directory; use list_directory`);
    const file = await openForRead(confined.path, input.path);
    if (!file.ok) return failure(file.message);
    let content: Buffer;
    try {
      const { size } = await file.handle.stat();
      if (size > MAX_READ_FILE_BYTES) {
        return failure(
          `${input.path} is ${size} bytes, over the ${MAX_READ_FILE_BYTES}-byte read limit; ` +
            'use grep, or bash (head, sed -n) when allowed',
        );
      }
      content = await file.handle.readFile();
    } finally {
      await file.handle.close();
    }
    if (looksBinary(content))
      return failure(`${input.path} looks binary; only text files can be read`);
    const lines = content.toString('utf8').split(/(?<=\n)/);
    return lineWindow(lines, input, ctx.spec.limits.max_output_bytes);
  },
});

function lineWindow(
  lines: string[],
  input: z.infer<typeof inputSchema>,
  maxBytes: number,
): ToolResult {
  const first = (input.offset ?? 1) - 1;
  if (first > 0 && first >= lines.length) {
    return failure(`offset ${first + 1} is past the end of ${input.path} (${lines.length} lines)`);
  }
  const end = input.limit ? Math.min(lines.length, first + input.limit) : lines.length;
  const budget = maxBytes - NOTICE_RESERVE_BYTES;
  let output = '';
  let bytes = 0;
  let line = first;
  for (; line < end; line++) {
    const size = Buffer.byteLength(lines[line]);
    if (line > first && bytes + size > budget) break;
    output += lines[line];
    bytes += size;
  }
  if (line < end) {
    output += `\n[truncated at line ${line} of ${lines.length}; continue with offset=${line + 1}]`;
  }
  return { ok: true, output };
}
