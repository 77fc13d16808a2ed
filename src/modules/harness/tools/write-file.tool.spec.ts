import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import type { ToolContext } from './harness-tool';
import { writeFileTool } from './write-file.tool';

describe('write_file', () => {
  let base: string;
  let dir: string;
  const ctx = (yaml = ''): ToolContext => ({
    workingDir: dir,
    spec: parseHarnessSpec(`inherits: coding\nname: t\n${yaml}`, 't.yaml', base).spec,
    signal: new AbortController().signal,
  });

  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'harness-write-')));
    dir = path.join(base, 'work');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    mkdirSync(path.join(base, 'outside'));
    symlinkSync(path.join(base, 'outside'), path.join(dir, 'out'));
    symlinkSync('sub', path.join(dir, 'inner'));
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('creates parent directories and the file, then overwrites it', async () => {
    await expect(
      writeFileTool.execute({ path: 'a/b/c.txt', content: 'héllo' }, ctx()),
    ).resolves.toEqual({
      ok: true,
      output: 'wrote 6 bytes to a/b/c.txt',
    });
    await writeFileTool.execute({ path: 'a/b/c.txt', content: 'bye' }, ctx());
    expect(readFileSync(path.join(dir, 'a/b/c.txt'), 'utf8')).toBe('bye');
  });

  it('refuses content over limits.max_input_bytes', async () => {
    const result = await writeFileTool.execute(
      { path: 'big.txt', content: 'x'.repeat(11) },
      ctx('limits: {max_input_bytes: 10}'),
    );
    expect(result).toEqual({ ok: false, output: 'content is 11 bytes; the limit is 10 bytes' });
    expect(existsSync(path.join(dir, 'big.txt'))).toBe(false);
  });

  it('refuses escaping paths and writing through a symlinked directory', async () => {
    await expect(
      writeFileTool.execute({ path: '../x.txt', content: '' }, ctx()),
    ).resolves.toMatchObject({ ok: false });
    const result = await writeFileTool.execute({ path: 'out/new/x.txt', content: 'pwned' }, ctx());
    expect(result).toMatchObject({ ok: false, output: expect.stringMatching(/symbolic link/) });
    expect(existsSync(path.join(base, 'outside/new'))).toBe(false);
  });

  it('writes through a symlink that stays inside, and refuses directories', async () => {
    await expect(
      writeFileTool.execute({ path: 'inner/y.txt', content: 'y' }, ctx()),
    ).resolves.toEqual({ ok: true, output: 'wrote 1 bytes to sub/y.txt' });
    expect(readFileSync(path.join(dir, 'sub/y.txt'), 'utf8')).toBe('y');
    await expect(writeFileTool.execute({ path: 'sub', content: '' }, ctx())).resolves.toEqual({
      ok: false,
      output: 'sub is a directory',
    });
  });
});
