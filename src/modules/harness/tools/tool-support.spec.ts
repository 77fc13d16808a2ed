import { z } from 'zod';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import { capOutput, defineTool, looksBinary } from './tool-support';

describe(capOutput.name, () => {
  it('leaves short text alone', () => {
    expect(capOutput('hello', 5)).toBe('hello');
  });

  it('cuts on a character boundary and stays within the cap, notice included', () => {
    const text = 'é'.repeat(100);
    const capped = capOutput(text, 60);
    expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(60);
    expect(capped).toMatch(/^é+\n\[output truncated: showed \d+ of 200 bytes\]$/);
    expect(capped).not.toContain('\ufffd');
  });
});

describe(looksBinary.name, () => {
  it('detects NUL bytes', () => {
    expect(looksBinary(Buffer.from('a\0b'))).toBe(true);
    expect(looksBinary(Buffer.from('plain'))).toBe(false);
  });
});

describe(defineTool.name, () => {
  const spec = parseHarnessSpec(
    'inherits: coding\nname: t\nlimits: {max_output_bytes: 100}',
    't.yaml',
    '/tmp',
  ).spec;
  const ctx = { workingDir: '/tmp', spec, signal: new AbortController().signal };
  const tool = defineTool({
    name: 'read_file',
    description: 'test tool',
    inputSchema: z.object({ mode: z.enum(['throw', 'long']) }),
    target: (input) => input.mode,
    run: async (input) => {
      if (input.mode === 'throw') throw new Error('boom');
      return { ok: true, output: 'x'.repeat(1000) };
    },
  });

  it('turns a thrown error into a failed result', async () => {
    await expect(tool.execute({ mode: 'throw' }, ctx)).resolves.toEqual({
      ok: false,
      output: 'read_file failed: boom',
    });
  });

  it('caps output at limits.max_output_bytes', async () => {
    const { output } = await tool.execute({ mode: 'long' }, ctx);
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(100);
  });
});
