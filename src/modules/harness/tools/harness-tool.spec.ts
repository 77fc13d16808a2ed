import { z } from 'zod';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import type { HarnessSpec } from '../spec/harness-spec.schema';
import { toolsFor } from './harness-tool';

const load = (text: string): HarnessSpec => parseHarnessSpec(text, 't.yaml', '/tmp').spec;
const names = (spec: HarnessSpec, agentId?: string) => toolsFor(spec, agentId).map((t) => t.name);

describe(toolsFor.name, () => {
  it('offers every tool for the coding template', () => {
    expect(names(load('inherits: coding'))).toEqual([
      'read_file',
      'list_directory',
      'glob',
      'grep',
      'write_file',
      'edit_file',
      'bash',
    ]);
  });

  it('offers only reading tools for read-only and none for no-tool', () => {
    expect(names(load('inherits: read-only'))).toEqual([
      'read_file',
      'list_directory',
      'glob',
      'grep',
    ]);
    expect(names(load('inherits: no-tool'))).toEqual([]);
    expect(names(load('inherits: coding\nflavor: no_tool'))).toEqual([]);
  });

  it('follows each allow_* flag', () => {
    const spec = load('name: x\nexecution_policy: {allow_read: false, allow_shell: true}');
    expect(names(spec)).toEqual(['bash']);
  });

  it("narrows to an agent's tools, never beyond the policy", () => {
    const spec = load('inherits: read-only\nagents: [{id: r, tools: [grep, bash]}, {id: all}]');
    expect(names(spec, 'r')).toEqual(['grep']);
    expect(names(spec, 'all')).toEqual(names(spec));
    expect(() => toolsFor(spec, 'nobody')).toThrow(
      'harness "read-only" has no agent "nobody" (agents: r, all)',
    );
  });

  it('gives every tool a zod input schema, a description and a target', () => {
    for (const tool of toolsFor(load('inherits: coding'))) {
      expect(tool.inputSchema).toBeInstanceOf(z.ZodObject);
      expect(tool.description.length).toBeGreaterThan(20);
      expect(typeof tool.target({})).toBe('string');
    }
  });
});
