import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import type { ToolContext } from './harness-tool';
import { readFileTool } from './read-file.tool';

describe('read_file', () => {
  let base: string;
  let dir: string;
  const ctx = (yaml = ''): ToolContext => ({
    workingDir: dir,
    spec: parseHarnessSpec(`inherits: coding\nname: t\n${yaml}`, 't.yaml', base).spec,
    signal: new AbortController().signal,
  });

  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'harness-read-')));
    dir = path.join(base, 'work');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'a.txt'), 'one\r\ntwo\nthree\nfour\n');
    writeFileSync(path.join(dir, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
    writeFileSync(path.join(base, 'secret.txt'), 'secret');
    symlinkSync(path.join(base, 'secret.txt'), path.join(dir, 'link'));
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('returns the exact content', async () => {
    await expect(readFileTool.execute({ path: 'a.txt' }, ctx())).resolves.toEqual({
      ok: true,
      output: 'one\r\ntwo\nthree\nfour\n',
    });
  });

  it('returns a window of lines with offset and limit', async () => {
    const result = await readFileTool.execute({ path: './a.txt', offset: 2, limit: 2 }, ctx());
    expect(result).toEqual({ ok: true, output: 'two\nthree\n' });
  });

  it('stops at limits.max_output_bytes with the offset to continue from', async () => {
    writeFileSync(
      path.join(dir, 'long.txt'),
      Array.from({ length: 100 }, (_, i) => `line ${i + 1}\n`).join(''),
    );
    const { ok, output } = await readFileTool.execute(
      { path: 'long.txt' },
      ctx('limits: {max_output_bytes: 300}'),
    );
    expect(ok).toBe(true);
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(300);
    expect(output).toMatch(/^line 1\n/);
    expect(output).toMatch(/\n\[truncated at line 13 of 100; continue with offset=14\]$/);
  });

  it('refuses binary files, directories, missing files and offsets past the end', async () => {
    await expect(readFileTool.execute({ path: 'bin.dat' }, ctx())).resolves.toEqual({
      ok: false,
      output: 'bin.dat looks binary; only text files can be read',
    });
    await expect(readFileTool.execute({ path: 'sub' }, ctx())).resolves.toMatchObject({
      ok: false,
      output: expect.stringMatching(/is a directory/),
    });
    await expect(readFileTool.execute({ path: 'none' }, ctx())).resolves.toMatchObject({
      ok: false,
    });
    await expect(readFileTool.execute({ path: 'a.txt', offset: 9 }, ctx())).resolves.toMatchObject({
      ok: false,
      output: expect.stringMatching(/past the end/),
    });
  });

  it('refuses paths that escape, directly or through a symlink', async () => {
    await expect(readFileTool.execute({ path: '../secret.txt' }, ctx())).resolves.toEqual({
      ok: false,
      output: 'path escapes the working directory: ../secret.txt',
    });
    const viaLink = await readFileTool.execute({ path: 'link' }, ctx());
    expect(viaLink).toMatchObject({ ok: false, output: expect.stringMatching(/symbolic link/) });
    expect(viaLink.output).not.toContain('secret\n');
  });

  it('rejects invalid input without throwing, and exposes its target', async () => {
    const result = await readFileTool.execute({ file: 'a.txt' }, ctx());
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/^invalid input: .*path/s);
    expect(readFileTool.target({ path: 'src/a.ts' })).toBe('src/a.ts');
    expect(readFileTool.target(42)).toBe('');
  });
});
