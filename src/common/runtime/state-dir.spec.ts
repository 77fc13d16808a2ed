import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeStateDir } from './state-dir';

describe(makeStateDir.name, () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'sq-state-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes .superqode/.gitignore ("*") when it creates .superqode (issue #19)', () => {
    makeStateDir(join(root, '.superqode', 'a2a'));
    expect(existsSync(join(root, '.superqode', 'a2a'))).toBe(true);
    expect(readFileSync(join(root, '.superqode', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('leaves an existing .superqode alone (no .gitignore added)', () => {
    mkdirSync(join(root, '.superqode'));
    makeStateDir(join(root, '.superqode', 'a2a'));
    expect(existsSync(join(root, '.superqode', '.gitignore'))).toBe(false);
  });

  it('writes nothing for directories outside .superqode', () => {
    makeStateDir(join(root, 'data', 'stores'));
    expect(existsSync(join(root, 'data', '.gitignore'))).toBe(false);
  });
});
