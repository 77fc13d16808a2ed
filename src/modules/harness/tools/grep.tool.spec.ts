import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import { grepTool, MAX_GREP_MATCHES } from './grep.tool';
import type { ToolContext } from './harness-tool';

describe('grep', () => {
  let base: string;
  let dir: string;
  const ctx = (yaml = ''): ToolContext => ({
    workingDir: dir,
    spec: parseHarnessSpec(`inherits: read-only\nname: t\n${yaml}`, 't.yaml', base).spec,
    signal: new AbortController().signal,
  });
  const put = (file: string, content: string | Buffer) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  };

  beforeAll(() => {
    base = realpathSync(mkdtempSync(path.join(tmpdir(), 'harness-grep-')));
    dir = path.join(base, 'work');
    put('src/a.ts', 'import x;\nconst needle = 1;\r\n');
    put('src/b.md', 'a needle here\n');
    put('bin.dat', Buffer.from('needle\0'));
    put('big.txt', `needle\n${'x'.repeat(1024 * 1024)}`);
    put('node_modules/m/index.js', 'needle');
    put('.git/config', 'needle');
    put('many.txt', 'needle\n'.repeat(MAX_GREP_MATCHES + 5));
    mkdirSync(path.join(base, 'outside'));
    writeFileSync(path.join(base, 'outside', 'secret.txt'), 'needle');
    symlinkSync(path.join(base, 'outside'), path.join(dir, 'out'));
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('reports file:line: text, skipping binary, large, .git, node_modules and symlinked files', async () => {
    const result = await grepTool.execute({ pattern: 'const needle|a needle', path: '.' }, ctx());
    expect(result).toEqual({
      ok: true,
      output: 'src/a.ts:2: const needle = 1;\nsrc/b.md:1: a needle here',
    });
    const all = (await grepTool.execute({ pattern: 'needle', glob: 'src/**' }, ctx())).output;
    expect(all).not.toMatch(/bin\.dat|big\.txt|node_modules|\.git|secret/);
  });

  it('filters by glob (basename patterns match at any depth) and by path', async () => {
    await expect(grepTool.execute({ pattern: 'needle', glob: '*.md' }, ctx())).resolves.toEqual({
      ok: true,
      output: 'src/b.md:1: a needle here',
    });
    await expect(grepTool.execute({ pattern: 'needle', path: 'src/a.ts' }, ctx())).resolves.toEqual(
      { ok: true, output: 'src/a.ts:2: const needle = 1;' },
    );
    await expect(
      grepTool.execute({ pattern: 'needle', path: 'node_modules' }, ctx()),
    ).resolves.toEqual({ ok: true, output: 'node_modules/m/index.js:1: needle' });
  });

  it('caps the number of matches', async () => {
    const { output } = await grepTool.execute({ pattern: 'needle', path: 'many.txt' }, ctx());
    expect(output.split('\n')).toHaveLength(MAX_GREP_MATCHES + 1);
    expect(output).toMatch(/\[stopped at 200 matches\]$/);
  });

  it('reports no matches, invalid regexes and escaping paths', async () => {
    await expect(grepTool.execute({ pattern: 'zzz' }, ctx())).resolves.toEqual({
      ok: true,
      output: 'no matches',
    });
    await expect(grepTool.execute({ pattern: '(' }, ctx())).resolves.toMatchObject({
      ok: false,
      output: expect.stringMatching(/^invalid regular expression/),
    });
    await expect(grepTool.execute({ pattern: 'x', path: 'out' }, ctx())).resolves.toMatchObject({
      ok: false,
    });
  });

  it('skips files that permission rules deny', async () => {
    const rules =
      'execution_policy: {permission_rules: [{tool: grep, pattern: "**/*.md", action: deny}]}';
    await expect(grepTool.execute({ pattern: 'a needle' }, ctx(rules))).resolves.toEqual({
      ok: true,
      output: 'no matches',
    });
  });

  it('stops a runaway regex instead of blocking the event loop', async () => {
    put('redos.txt', `${'a'.repeat(34)}b\n`);
    const result = await grepTool.execute({ pattern: '^(a+)+$', path: 'redos.txt' }, ctx());
    expect(result).toMatchObject({
      ok: false,
      output: expect.stringMatching(/took longer than 1000 ms.*redos\.txt/),
    });
  });
});
