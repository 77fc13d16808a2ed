import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import { editFileTool } from './edit-file.tool';
import type { ToolContext } from './harness-tool';

describe('edit_file', () => {
  let dir: string;
  const file = () => path.join(dir, 'f.ts');
  const ctx = (): ToolContext => ({
    workingDir: dir,
    spec: parseHarnessSpec('inherits: coding\nname: t', 't.yaml', dir).spec,
    signal: new AbortController().signal,
  });

  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'harness-edit-')));
    writeFileSync(file(), 'const a = 1;\nconst b = 1;\nconst c = 2;\n');
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a unique occurrence exactly ($ sequences stay literal)', async () => {
    const input = { path: 'f.ts', old_string: 'c = 2', new_string: "c = '$&$1'" };
    await expect(editFileTool.execute(input, ctx())).resolves.toEqual({
      ok: true,
      output: 'replaced 1 occurrence in f.ts',
    });
    expect(readFileSync(file(), 'utf8')).toBe("const a = 1;\nconst b = 1;\nconst c = '$&$1';\n");
  });

  it('refuses a non-unique old_string unless replace_all', async () => {
    const input = { path: 'f.ts', old_string: '= 1', new_string: '= 3' };
    await expect(editFileTool.execute(input, ctx())).resolves.toEqual({
      ok: false,
      output:
        'old_string occurs 2 times in f.ts; add surrounding context to make it unique, or set replace_all',
    });
    expect(readFileSync(file(), 'utf8')).toContain('a = 1');
    await expect(editFileTool.execute({ ...input, replace_all: true }, ctx())).resolves.toEqual({
      ok: true,
      output: 'replaced 2 occurrences in f.ts',
    });
    expect(readFileSync(file(), 'utf8')).toBe('const a = 3;\nconst b = 3;\nconst c = 2;\n');
  });

  it('fails when old_string is absent, empty or equal to new_string, or the file is missing', async () => {
    await expect(
      editFileTool.execute({ path: 'f.ts', old_string: 'zzz', new_string: 'y' }, ctx()),
    ).resolves.toEqual({ ok: false, output: 'old_string not found in f.ts' });
    await expect(
      editFileTool.execute({ path: 'f.ts', old_string: '', new_string: 'y' }, ctx()),
    ).resolves.toMatchObject({ ok: false });
    await expect(
      editFileTool.execute({ path: 'f.ts', old_string: 'a', new_string: 'a' }, ctx()),
    ).resolves.toMatchObject({ ok: false });
    await expect(
      editFileTool.execute({ path: 'g.ts', old_string: 'a', new_string: 'b' }, ctx()),
    ).resolves.toMatchObject({ ok: false, output: expect.stringMatching(/no such file/) });
  });

  it('refuses files outside the working directory', async () => {
    await expect(
      editFileTool.execute({ path: '../f.ts', old_string: 'a', new_string: 'b' }, ctx()),
    ).resolves.toMatchObject({ ok: false, output: expect.stringMatching(/escapes/) });
  });
});
