import { parseHarnessSpec } from '../spec/harness-spec.loader';
import type { HarnessSpec } from '../spec/harness-spec.schema';
import { decidePermission } from './permission';

const specWith = (rules: string, template = 'coding'): HarnessSpec =>
  parseHarnessSpec(
    `inherits: ${template}\nname: t\nexecution_policy:\n  permission_rules: ${rules}`,
    't.yaml',
    '/tmp',
  ).spec;

describe(decidePermission.name, () => {
  it('allows when no rule matches', async () => {
    expect(await decidePermission(specWith('[]'), 'read_file', 'src/a.ts')).toBe('allow');
  });

  it('applies the first matching rule, with globs over tool names and targets', async () => {
    const spec = specWith(`
    - {tool: "*_file", pattern: "src/**", action: allow}
    - {tool: "*_file", pattern: "**/*.ts", action: ask}
    - {tool: "*", action: deny}`);
    expect(await decidePermission(spec, 'write_file', 'src/deep/a.ts')).toBe('allow');
    expect(await decidePermission(spec, 'edit_file', 'lib/a.ts')).toBe('ask');
    expect(await decidePermission(spec, 'read_file', 'README.md')).toBe('deny');
    expect(await decidePermission(spec, 'grep', 'src/a.ts')).toBe('deny');
  });

  it('normalizes paths and matches dotfiles, ".", and absolute forms of a relative rule', async () => {
    const spec = specWith(
      '[{tool: read_file, pattern: ".env*", action: deny}, {tool: list_directory, action: ask}]',
    );
    expect(await decidePermission(spec, 'read_file', './sub/../.env.local')).toBe('deny');
    expect(await decidePermission(spec, 'read_file', '/work/dir/.env')).toBe('deny');
    expect(await decidePermission(spec, 'list_directory', '.')).toBe('ask');
  });

  it('matches bash rules against the whole line and each simple command in it', async () => {
    const spec = specWith(
      '[{tool: bash, pattern: "rm *", action: ask}, {tool: bash, pattern: "curl *", action: deny}]',
    );
    expect(await decidePermission(spec, 'bash', 'rm -rf /tmp/x')).toBe('ask');
    expect(await decidePermission(spec, 'bash', 'git status; rm x')).toBe('ask');
    expect(await decidePermission(spec, 'bash', 'rm x && echo $(curl http://e.vil)')).toBe('deny');
    expect(await decidePermission(spec, 'bash', 'git status')).toBe('allow');
  });

  it('denies a line it cannot check, and sees through launchers (#12.4)', async () => {
    const spec = specWith('[{tool: bash, pattern: "rm *", action: ask}]');
    expect(await decidePermission(spec, 'bash', 'echo \\>& rm -rf x')).toBe('deny');
    expect(await decidePermission(spec, 'bash', 'env A=1 rm x')).toBe('ask');
    expect(await decidePermission(spec, 'bash', 'ls')).toBe('allow');
  });

  it('does not let an allow rule for the whole line hide a later command', async () => {
    const spec = specWith(
      '[{tool: bash, pattern: "git *", action: allow}, {tool: bash, action: ask}]',
    );
    expect(await decidePermission(spec, 'bash', 'git status')).toBe('allow');
    expect(await decidePermission(spec, 'bash', 'git status; rm x')).toBe('ask');
  });

  it('denies tools the execution policy does not enable', async () => {
    const readOnly = specWith('[{tool: "*", action: allow}]', 'read-only');
    expect(await decidePermission(readOnly, 'read_file', 'a')).toBe('allow');
    expect(await decidePermission(readOnly, 'write_file', 'a')).toBe('deny');
    expect(await decidePermission(readOnly, 'bash', 'ls')).toBe('deny');
  });
});
