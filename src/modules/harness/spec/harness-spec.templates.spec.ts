import path from 'node:path';
import { builtinTemplate, loadHarnessSpec, parseHarnessSpec } from './harness-spec.loader';

const EXAMPLES = path.resolve(__dirname, '../../../../examples/harness');
const DIR = path.resolve(__dirname);

describe(builtinTemplate.name, () => {
  it('builds each built-in template', () => {
    const load = (name: 'coding' | 'read-only' | 'no-tool') =>
      parseHarnessSpec(`inherits: ${name}`, `${name}.yaml`, DIR).spec;
    expect(load('coding').execution_policy).toMatchObject({
      allow_read: true,
      allow_write: true,
      allow_shell: true,
      sandbox: 'auto',
    });
    expect(load('read-only').execution_policy).toMatchObject({
      allow_read: true,
      allow_write: false,
      allow_shell: false,
    });
    expect(load('no-tool').flavor).toBe('no_tool');
    expect(builtinTemplate('coding')).not.toBe(builtinTemplate('coding'));
  });

  it('forces every tool permission off for flavor no_tool, with a warning', () => {
    const text = 'inherits: coding\nname: x\nflavor: no_tool';
    const { spec, warnings } = parseHarnessSpec(text, 'x.yaml', DIR);
    expect(spec.execution_policy).toMatchObject({
      allow_read: false,
      allow_write: false,
      allow_shell: false,
      allow_network: false,
    });
    expect(warnings).toEqual([
      'x.yaml: flavor is no_tool: execution_policy.allow_read, allow_write, allow_shell forced off',
    ]);
  });

  it('loads the three shipped examples', () => {
    const coding = loadHarnessSpec(path.join(EXAMPLES, 'coding.yaml'));
    expect(coding.spec).toMatchObject({
      name: 'example-coding',
      inherits: 'coding',
      flavor: 'coding',
    });
    expect(coding.spec.execution_policy.permission_rules[0]).toEqual({
      tool: 'bash',
      pattern: 'rm *',
      action: 'ask',
    });
    // sandbox auto: the local-sandbox warnings come when it resolves to local (spec-sandbox.ts).
    expect(coding.warnings.some((w) => w.includes('NO isolation'))).toBe(false);
    expect(coding.spec.execution_policy.sandbox).toBe('auto');
    const readOnly = loadHarnessSpec(path.join(EXAMPLES, 'read-only.yaml')).spec;
    expect(readOnly.execution_policy).toMatchObject({
      allow_read: true,
      allow_write: false,
      allow_shell: false,
    });
    const noTool = loadHarnessSpec(path.join(EXAMPLES, 'no-tool.yaml'));
    expect(noTool.spec).toMatchObject({
      name: 'example-no-tool',
      flavor: 'no_tool',
      inherits: 'no-tool',
    });
    expect(noTool.warnings).toEqual([]);
  });

  it('warns about agent tools the policy does not allow', () => {
    const text = 'inherits: read-only\nname: x\nagents: [{id: a, tools: [grep, bash]}]';
    expect(parseHarnessSpec(text, 'x.yaml', DIR).warnings).toContain(
      'x.yaml: agents[0].tools: bash not allowed by execution_policy; not offered',
    );
  });
});
