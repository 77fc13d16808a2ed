import { z } from 'zod';
import type { HarnessTool, HarnessToolName, ToolContext, ToolResult } from './harness-tool';

/** Bytes inspected for a NUL byte to call a file binary (git's heuristic). */
const BINARY_SNIFF_BYTES = 8000;

/**
 * Truncates text to at most `maxBytes` UTF-8 bytes, notice included, cutting on a character
 * boundary and ending with `[output truncated: showed N of M bytes]`.
 * @param text - Any text.
 * @param maxBytes - Cap in bytes; below the notice's size only the notice's tail fits.
 */
export function capOutput(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  const notice = (kept: number) => `\n[output truncated: showed ${kept} of ${bytes.length} bytes]`;
  let keep = Math.max(0, maxBytes - Buffer.byteLength(notice(maxBytes)));
  while (keep > 0 && (bytes[keep] & 0xc0) === 0x80) keep--;
  const capped = bytes.subarray(0, keep).toString('utf8') + notice(keep);
  return Buffer.byteLength(capped) <= maxBytes ? capped : capped.slice(-maxBytes);
}

/**
 * A failed tool result.
 * @param message - What went wrong, for the model.
 */
export function failure(message: string): ToolResult {
  return { ok: false, output: message };
}

/**
 * Whether a file's leading bytes contain a NUL byte.
 * @param head - The file's first bytes (any length; only the first 8000 are inspected).
 */
export function looksBinary(head: Buffer): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * A short, stack-free description of an unexpected error (`EACCES: permission denied, ...`).
 * @param error - Anything thrown.
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a tool implementation supplies to {@link defineTool}. */
export interface ToolDefinition<S extends z.ZodRawShape> {
  name: HarnessToolName;
  description: string;
  inputSchema: z.ZodObject<S>;
  target(input: z.infer<z.ZodObject<S>>): string;
  run(input: z.infer<z.ZodObject<S>>, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * Wraps a tool implementation: validates input, turns thrown errors into `ok: false` results
 * (the run loop never sees a rejection) and caps output at `limits.max_output_bytes`.
 * @param definition - Name, description, zod input schema, target and run functions.
 */
export function defineTool<S extends z.ZodRawShape>(definition: ToolDefinition<S>): HarnessTool {
  const parse = (input: unknown) => definition.inputSchema.safeParse(input);
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: definition.inputSchema as unknown as z.ZodObject<z.ZodRawShape>,
    target: (input) => {
      const parsed = parse(input);
      return parsed.success ? definition.target(parsed.data) : '';
    },
    execute: async (input, ctx) => {
      const parsed = parse(input);
      if (!parsed.success) return failure(`invalid input: ${z.prettifyError(parsed.error)}`);
      let result: ToolResult;
      try {
        result = await definition.run(parsed.data, ctx);
      } catch (error) {
        result = failure(`${definition.name} failed: ${describeError(error)}`);
      }
      return { ok: result.ok, output: capOutput(result.output, ctx.spec.limits.max_output_bytes) };
    },
  };
}
