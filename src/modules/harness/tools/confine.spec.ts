import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { confineExisting, confineForWrite } from './confine';

describe('confine', () => {
  let base: string;
  let dir: string;
  let outside: string;

  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'harness-confine-')));
    dir = path.join(base, 'work');
    outside = path.join(base, 'outside');
    mkdirSync(path.join(dir, 'sub'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(dir, 'sub', 'f.txt'), 'inside');
    writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    symlinkSync(outside, path.join(dir, 'out'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'secret-link'));
    symlinkSync('sub', path.join(dir, 'inner-link'));
    symlinkSync(path.join(outside, 'missing.txt'), path.join(dir, 'dangling'));
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  describe(confineExisting.name, () => {
    it('refuses ".." that leaves the working directory', async () => {
      await expect(confineExisting(dir, '../outside/secret.txt')).resolves.toEqual({
        ok: false,
        message: 'path escapes the working directory: ../outside/secret.txt',
      });
    });

    it('refuses absolute paths outside and accepts absolute paths inside', async () => {
      await expect(confineExisting(dir, '/etc/passwd')).resolves.toMatchObject({ ok: false });
      await expect(confineExisting(dir, path.join(dir, 'sub/f.txt'))).resolves.toEqual({
        ok: true,
        path: path.join(dir, 'sub/f.txt'),
        rel: 'sub/f.txt',
      });
    });

    it('accepts ".." that stays inside, and the directory itself', async () => {
      await expect(confineExisting(dir, 'sub/../sub/f.txt')).resolves.toMatchObject({
        rel: 'sub/f.txt',
      });
      await expect(confineExisting(dir, '.')).resolves.toMatchObject({ ok: true, rel: '.' });
    });

    it('refuses a symlinked directory or file that points outside', async () => {
      const viaDir = await confineExisting(dir, 'out/secret.txt');
      expect(viaDir).toEqual({
        ok: false,
        message: 'path escapes the working directory through a symbolic link: out/secret.txt',
      });
      await expect(confineExisting(dir, 'secret-link')).resolves.toMatchObject({ ok: false });
    });

    it('follows a symlink that stays inside to its real path', async () => {
      await expect(confineExisting(dir, 'inner-link/f.txt')).resolves.toMatchObject({
        ok: true,
        rel: 'sub/f.txt',
      });
    });

    it('reports missing files and NUL bytes as refusals', async () => {
      await expect(confineExisting(dir, 'nope.txt')).resolves.toEqual({
        ok: false,
        message: 'no such file or directory: nope.txt',
      });
      await expect(confineExisting(dir, 'a\0b')).resolves.toMatchObject({ ok: false });
    });
  });

  describe(confineForWrite.name, () => {
    it('accepts new files in new directories inside', async () => {
      await expect(confineForWrite(dir, 'new/deep/file.txt')).resolves.toEqual({
        ok: true,
        path: path.join(dir, 'new/deep/file.txt'),
        rel: 'new/deep/file.txt',
      });
    });

    it('refuses writing through a symlinked directory that points outside', async () => {
      await expect(confineForWrite(dir, 'out/new.txt')).resolves.toMatchObject({ ok: false });
      await expect(confineForWrite(dir, 'out/a/b/new.txt')).resolves.toMatchObject({ ok: false });
    });

    it('refuses an existing final symlink to outside and a dangling symlink', async () => {
      await expect(confineForWrite(dir, 'secret-link')).resolves.toMatchObject({ ok: false });
      await expect(confineForWrite(dir, 'dangling')).resolves.toEqual({
        ok: false,
        message: 'refusing to write through a dangling symbolic link: dangling',
      });
    });

    it('refuses ".." and absolute paths outside', async () => {
      await expect(confineForWrite(dir, '../x')).resolves.toEqual({
        ok: false,
        message: 'path escapes the working directory: ../x',
      });
      await expect(confineForWrite(dir, path.join(outside, 'x'))).resolves.toMatchObject({
        ok: false,
      });
    });

    it('writes through an inside symlink to its real path', async () => {
      await expect(confineForWrite(dir, 'inner-link/g.txt')).resolves.toMatchObject({
        ok: true,
        rel: 'sub/g.txt',
      });
    });
  });
});
