import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import { editFileTool } from './edit-file.tool';
import type { ToolContext } from './harness-tool';
import { decidePermission } from './permission';
import { readFileTool } from './read-file.tool';
import { writeFileTool } from './write-file.tool';

describe('file confinement (#12.5, #12.6)', () => {
  let base: string;
  let dir: string;
  const ctx = (policy = ''): ToolContext => ({
    workingDir: dir,
    spec: parseHarnessSpec(
      `inherits: coding\nname: t\nexecution_policy:\n  allow_write: true\n${policy}`,
      't.yaml',
      base,
    ).spec,
    signal: new AbortController().signal,
  });

  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'harness-confine-')));
    dir = path.join(base, 'work');
    mkdirSync(path.join(dir, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(dir, '.git', 'config'), '[core]\n');
    writeFileSync(path.join(dir, '.env'), 'TOKEN=abc\n');
    writeFileSync(path.join(base, 'outside.txt'), 'outside\n');
    linkSync(path.join(base, 'outside.txt'), path.join(dir, 'hard.txt'));
    symlinkSync('.env', path.join(dir, 'notes.txt'));
    symlinkSync('.git', path.join(dir, 'meta'));
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('matches permission rules on the resolved path as well as the requested one', async () => {
    const { spec } = ctx(`  permission_rules: [{tool: "*", pattern: "**/.env*", action: deny}]`);
    await expect(decidePermission(spec, 'read_file', 'notes.txt', dir)).resolves.toBe('deny');
    await expect(decidePermission(spec, 'read_file', 'notes.txt')).resolves.toBe('allow');
    await expect(decidePermission(spec, 'read_file', '.git/config', dir)).resolves.toBe('allow');
  });

  it('denies writes under .git/, requested or through a symlink, unless allow_git_writes', async () => {
    const { spec } = ctx();
    await expect(decidePermission(spec, 'edit_file', '.git/config', dir)).resolves.toBe('deny');
    await expect(decidePermission(spec, 'write_file', 'meta/hooks/pre-commit', dir)).resolves.toBe(
      'deny',
    );
    await expect(decidePermission(spec, 'write_file', 'src/a.ts', dir)).resolves.toBe('allow');
    const relaxed = ctx('  allow_git_writes: true').spec;
    await expect(decidePermission(relaxed, 'edit_file', '.git/config', dir)).resolves.toBe('allow');
  });

  it('refuses .git/ writes in the tools too (an approval skips the permission check)', async () => {
    const edit = { path: '.git/config', old_string: '[core]', new_string: '[core]\n\tx = 1' };
    await expect(editFileTool.execute(edit, ctx())).resolves.toMatchObject({
      ok: false,
      output: expect.stringContaining('refusing to write under .git/ (.git/config)'),
    });
    await expect(
      writeFileTool.execute({ path: 'meta/hooks/pre-commit', content: 'id' }, ctx()),
    ).resolves.toMatchObject({
      ok: false,
      output: expect.stringContaining('.git/hooks/pre-commit'),
    });
    expect(readFileSync(path.join(dir, '.git', 'config'), 'utf8')).toBe('[core]\n');
    await expect(
      editFileTool.execute(edit, ctx('  allow_git_writes: true')),
    ).resolves.toMatchObject({ ok: true });
  });

  it('refuses to write or edit a file with more than one hard link, and still reads it', async () => {
    await expect(
      writeFileTool.execute({ path: 'hard.txt', content: 'pwned' }, ctx()),
    ).resolves.toEqual({
      ok: false,
      output: 'hard.txt has 2 hard links; refusing to write a file shared with other paths',
    });
    await expect(
      editFileTool.execute({ path: 'hard.txt', old_string: 'outside', new_string: 'x' }, ctx()),
    ).resolves.toMatchObject({ ok: false, output: expect.stringContaining('2 hard links') });
    expect(readFileSync(path.join(base, 'outside.txt'), 'utf8')).toBe('outside\n');
    await expect(readFileTool.execute({ path: 'hard.txt' }, ctx())).resolves.toMatchObject({
      ok: true,
    });
  });

  it('still writes and edits ordinary files', async () => {
    await expect(
      writeFileTool.execute({ path: 'new/b.txt', content: 'one' }, ctx()),
    ).resolves.toMatchObject({ ok: true });
    await expect(
      writeFileTool.execute({ path: 'new/b.txt', content: 'two two' }, ctx()),
    ).resolves.toMatchObject({ ok: true });
    await expect(
      editFileTool.execute({ path: 'new/b.txt', old_string: 'two two', new_string: 'x' }, ctx()),
    ).resolves.toMatchObject({ ok: true });
    expect(readFileSync(path.join(dir, 'new', 'b.txt'), 'utf8')).toBe('x');
  });
});
