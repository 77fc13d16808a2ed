import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hideFromSandbox, maskedPaths, systemEntries } from './sandbox-host';

describe(maskedPaths.name, () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'sq-mask-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('masks nothing that does not exist (bwrap would create mount points in the checkout)', () => {
    hideFromSandbox([join(dir, 'absent.sqlite3')]);
    expect(maskedPaths(dir)).toEqual([]);
  });

  it('masks .superqode as a directory and registered stores elsewhere with their side files', () => {
    mkdirSync(join(dir, '.superqode/a2a'), { recursive: true });
    writeFileSync(join(dir, '.superqode/a2a/tasks.sqlite3'), 'x');
    writeFileSync(join(dir, 'ledger.sqlite3'), 'x');
    writeFileSync(join(dir, 'ledger.sqlite3-wal'), 'x');
    hideFromSandbox([
      join(dir, '.superqode/a2a/tasks.sqlite3'),
      join(dir, 'ledger.sqlite3'),
      null,
      '/elsewhere/t.sqlite3',
    ]);
    expect(maskedPaths(dir)).toEqual([
      { path: join(dir, '.superqode'), kind: 'dir' },
      { path: join(dir, 'ledger.sqlite3'), kind: 'file' },
      { path: join(dir, 'ledger.sqlite3-wal'), kind: 'file' },
    ]);
  });
});

describe(systemEntries.name, () => {
  it('lists /usr as a directory', () => {
    expect(systemEntries()).toContainEqual({ path: '/usr' });
  });
});
