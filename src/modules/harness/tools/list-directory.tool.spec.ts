import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import type { ToolContext } from './harness-tool';
import { listDirectoryTool } from './list-directory.tool';

describe('list_directory', () => {
  let base: string;
  let dir: string;
  const ctx = (): ToolContext => ({
    workingDir: dir,
    spec: parseHarnessSpec('inherits: read-only\nname: t', 't.yaml', base).spec,
    signal: new AbortController().signal,
  });

  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'harness-ls-')));
    dir = path.join(base, 'work');
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    mkdirSync(path.join(dir, 'empty'));
    writeFileSync(path.join(dir, 'b.txt'), '');
    writeFileSync(path.join(dir, '.env'), '');
    symlinkSync(base, path.join(dir, 'up'));
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('lists the working directory by default, marking directories and symlinks', async () => {
    await expect(listDirectoryTool.execute({}, ctx())).resolves.toEqual({
      ok: true,
      output: '.env\nb.txt\nempty/\nsrc/\nup@',
    });
  });

  it('reports an empty directory and refuses files', async () => {
    await expect(listDirectoryTool.execute({ path: 'empty' }, ctx())).resolves.toEqual({
      ok: true,
      output: '(empty directory)',
    });
    await expect(listDirectoryTool.execute({ path: 'b.txt' }, ctx())).resolves.toEqual({
      ok: false,
      output: 'b.txt is not a directory',
    });
  });

  it('refuses directories outside, directly or through a symlink', async () => {
    await expect(listDirectoryTool.execute({ path: '..' }, ctx())).resolves.toEqual({
      ok: false,
      output: 'path escapes the working directory: ..',
    });
    await expect(listDirectoryTool.execute({ path: 'up' }, ctx())).resolves.toMatchObject({
      ok: false,
    });
  });
});
