import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import { globTool } from './glob.tool';
import type { ToolContext } from './harness-tool';

describe('glob', () => {
  let base: string;
  let dir: string;
  const ctx = (yaml = ''): ToolContext => ({
    workingDir: dir,
    spec: parseHarnessSpec(`inherits: read-only\nname: t\n${yaml}`, 't.yaml', base).spec,
    signal: new AbortController().signal,
  });
  const glob = (pattern: string, yaml?: string) => globTool.execute({ pattern }, ctx(yaml));

  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'harness-glob-')));
    dir = path.join(base, 'work');
    for (const f of [
      'src/b.ts',
      'src/a.ts',
      'src/deep/c.ts',
      'README.md',
      '.github/ci.yml',
      '.env',
    ]) {
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      writeFileSync(path.join(dir, f), '');
    }
    mkdirSync(path.join(base, 'outside'));
    writeFileSync(path.join(base, 'outside', 'secret.ts'), '');
    symlinkSync(path.join(base, 'outside'), path.join(dir, 'out'));
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('returns sorted relative paths', async () => {
    await expect(glob('**/*.ts')).resolves.toEqual({
      ok: true,
      output: 'src/a.ts\nsrc/b.ts\nsrc/deep/c.ts',
    });
    await expect(glob('*.nothing')).resolves.toEqual({ ok: true, output: 'no files match' });
  });

  it('matches dotfiles only when the pattern names the dot', async () => {
    expect((await glob('**/*')).output).not.toContain('.github');
    await expect(glob('.github/*')).resolves.toEqual({ ok: true, output: '.github/ci.yml' });
  });

  it('refuses absolute patterns (also inside braces) and ".."', async () => {
    await expect(glob('/etc/*')).resolves.toEqual({
      ok: false,
      output: 'absolute glob patterns are not allowed: /etc/*',
    });
    await expect(glob('{/etc/passwd,x}')).resolves.toMatchObject({ ok: false });
    await expect(glob('../*')).resolves.toEqual({
      ok: false,
      output: '".." is not allowed in glob patterns: ../*',
    });
  });

  it('does not list files behind a symlink to outside', async () => {
    expect((await glob('**/*.ts')).output).not.toContain('secret');
    await expect(glob('out/*')).resolves.toEqual({ ok: true, output: 'no files match' });
  });

  it('leaves out files that permission rules deny', async () => {
    const rules =
      'execution_policy: {permission_rules: [{tool: "*", pattern: "**/b.ts", action: deny}]}';
    await expect(glob('src/*.ts', rules)).resolves.toEqual({ ok: true, output: 'src/a.ts' });
  });
});
