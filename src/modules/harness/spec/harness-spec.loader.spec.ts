import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  HarnessSpecError,
  loadHarnessSpec,
  MAX_INHERITANCE_DEPTH,
  parseHarnessSpec,
} from './harness-spec.loader';

describe(loadHarnessSpec.name, () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'harness-spec-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, content: string): string => {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    return file;
  };

  const errorOf = (fn: () => unknown): HarnessSpecError => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessSpecError);
      return error as HarnessSpecError;
    }
    throw new Error('expected a HarnessSpecError');
  };

  it('applies every default to a minimal spec', () => {
    const { spec, warnings } = parseHarnessSpec('name: bare', 'bare.yaml', dir);
    expect(spec).toEqual({
      version: 1,
      name: 'bare',
      description: '',
      flavor: 'coding',
      model_policy: { max_iterations: 25 },
      execution_policy: {
        sandbox: 'local',
        allow_read: true,
        allow_write: false,
        allow_shell: false,
        allow_network: false,
        allowed_commands: [],
        permission_rules: [],
        env: {},
        allow_git_writes: false,
      },
      agents: [],
      context: { instruction_files: ['AGENTS.md', 'CLAUDE.md', 'SUPERQODE.md'] },
      checks: { enabled: false, on_failure: 'report', custom_steps: [] },
      limits: {
        task_timeout_seconds: 600,
        max_input_bytes: 65536,
        max_output_bytes: 1048576,
        max_processes: 256,
        max_address_space_bytes: 8 * 1024 ** 3,
        max_file_bytes: 1024 ** 3,
        max_cpu_seconds: 600,
      },
      metadata: {},
    });
    expect(warnings.join('\n')).toMatch(/bare\.yaml: .*"local".*NO isolation/);
  });

  it('accepts JSON and the optional top-level harness: wrapper', () => {
    const json =
      '{"harness": {"name": "j", "execution_policy": {"permission_rules": [{"tool": "bash", "action": "deny"}]}}}';
    const { spec } = parseHarnessSpec(json, 'j.json', dir);
    expect(spec.name).toBe('j');
    expect(spec.execution_policy.permission_rules).toEqual([
      { tool: 'bash', pattern: '**', action: 'deny' },
    ]);
  });

  it('names the file, field path and the problem for an unknown key', () => {
    const file = write('typo/coding.yaml', 'name: x\nexecution_policy:\n  allow_wirte: true\n');
    const error = errorOf(() => loadHarnessSpec(file));
    expect(error.message).toBe(`${file}: execution_policy.allow_wirte: unrecognized key`);
  });

  it('names the expected type for a wrongly typed field', () => {
    const error = errorOf(() =>
      parseHarnessSpec('name: x\nmodel_policy: {max_iterations: "ten"}', 'coding.yaml', dir),
    );
    expect(error.message).toBe(
      'coding.yaml: model_policy.max_iterations: expected number, received string',
    );
  });

  it('reports missing fields, bad enums, array indexes and every problem at once', () => {
    const text = [
      'version: 2',
      'execution_policy:',
      '  permission_rules: [{tool: bash, action: maybe}]',
      'agents: [{id: a}, {id: a}]',
    ].join('\n');
    const { problems } = errorOf(() => parseHarnessSpec(text, 's.yaml', dir));
    expect(problems).toEqual(
      expect.arrayContaining([
        's.yaml: version: expected 1',
        's.yaml: name: required (expected string)',
        expect.stringMatching(
          /^s\.yaml: execution_policy\.permission_rules\[0\]\.action: expected one of/,
        ),
      ]),
    );
  });

  it('rejects duplicate agent ids', () => {
    const error = errorOf(() =>
      parseHarnessSpec('name: x\nagents: [{id: a}, {id: a}]', 's.yaml', dir),
    );
    expect(error.message).toBe('s.yaml: agents[1].id: duplicate agent id "a"');
  });

  it('rejects invalid YAML, duplicate keys and a non-mapping top level', () => {
    expect(errorOf(() => parseHarnessSpec('name: [', 'a.yaml', dir)).message).toMatch(
      /^a\.yaml: invalid YAML/,
    );
    expect(errorOf(() => parseHarnessSpec('name: a\nname: b', 'a.yaml', dir)).message).toMatch(
      /^a\.yaml: invalid YAML/,
    );
    expect(errorOf(() => parseHarnessSpec('- 1', 'a.yaml', dir)).message).toMatch(
      /^a\.yaml: \(root\): expected a mapping/,
    );
  });

  it('reports an unreadable file', () => {
    expect(errorOf(() => loadHarnessSpec(path.join(dir, 'missing.yaml'))).message).toMatch(
      /cannot read file \(ENOENT\)/,
    );
  });

  it('deep-merges a parent file: child wins, arrays replace, null resets to the default', () => {
    write(
      'inherit/base.yaml',
      [
        'name: base',
        'model_policy: {primary: "openai:gpt-5", temperature: 1}',
        'execution_policy: {allow_write: true, allowed_commands: [git, npm]}',
        'metadata: {team: core, tier: 1}',
      ].join('\n'),
    );
    const child = write(
      'inherit/sub/child.yaml',
      [
        'extends: ../base.yaml',
        'name: child',
        'model_policy: {temperature: null}',
        'execution_policy: {allowed_commands: [ls]}',
        'metadata: {tier: 2}',
      ].join('\n'),
    );
    const { spec } = loadHarnessSpec(child);
    expect(spec.name).toBe('child');
    expect(spec.inherits).toBe('../base.yaml');
    expect(spec.model_policy).toEqual({ primary: 'openai:gpt-5', max_iterations: 25 });
    expect(spec.execution_policy.allow_write).toBe(true);
    expect(spec.execution_policy.allowed_commands).toEqual(['ls']);
    expect(spec.metadata).toEqual({ team: 'core', tier: 2 });
  });

  it('attributes a problem to the ancestor file that introduced it', () => {
    write('blame/base.yaml', 'name: base\nlimits: {max_output_bytes: -1}\n');
    const child = write('blame/child.yaml', 'inherits: ./base.yaml\nname: c\n');
    const error = errorOf(() => loadHarnessSpec(child));
    expect(error.message).toMatch(/^.*blame\/base\.yaml: limits\.max_output_bytes: too small/);
  });

  it('rejects a cycle, naming the chain', () => {
    write('cycle/a.yaml', 'inherits: ./b.yaml\nname: a\n');
    write('cycle/b.yaml', 'inherits: ./a.yaml\nname: b\n');
    const error = errorOf(() => loadHarnessSpec(path.join(dir, 'cycle/a.yaml')));
    expect(error.message).toMatch(
      /inheritance cycle: .*cycle\/a\.yaml -> .*cycle\/b\.yaml -> .*cycle\/a\.yaml$/,
    );
  });

  it(`accepts ${MAX_INHERITANCE_DEPTH} hops of inheritance and rejects one more`, () => {
    const hops = MAX_INHERITANCE_DEPTH + 1;
    for (let i = 0; i <= hops; i++) {
      write(`deep/f${i}.yaml`, i === hops ? 'name: last\n' : `inherits: ./f${i + 1}.yaml\n`);
    }
    expect(loadHarnessSpec(path.join(dir, 'deep/f1.yaml')).spec.name).toBe('last');
    const error = errorOf(() => loadHarnessSpec(path.join(dir, 'deep/f0.yaml')));
    expect(error.message).toMatch(/chain deeper than 16: .*f0\.yaml -> .* -> \.\/f17\.yaml$/);
  });

  it('rejects both inherits and extends, absolute paths and a missing parent', () => {
    expect(
      errorOf(() => parseHarnessSpec('inherits: coding\nextends: coding\nname: x', 'a.yaml', dir))
        .message,
    ).toMatch(/not both/);
    expect(
      errorOf(() => parseHarnessSpec('inherits: /etc/x.yaml\nname: x', 'a.yaml', dir)).message,
    ).toMatch(/relative path/);
    expect(
      errorOf(() => parseHarnessSpec('inherits: ./nope.yaml\nname: x', 'a.yaml', dir)).message,
    ).toBe('nope.yaml: cannot read file (ENOENT)');
  });
});
