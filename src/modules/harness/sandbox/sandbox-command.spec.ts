import { parseHarnessSpec } from '../spec/harness-spec.loader';
import { planSpawn, sandboxPolicy } from './sandbox-command';
import { probeBwrap } from './sandbox-probe';
import { withResolvedSandbox } from './spec-sandbox';

const spec = (yaml: string) =>
  parseHarnessSpec(`name: t\ninherits: coding\n${yaml}`, 't.yaml', __dirname).spec;

describe(sandboxPolicy.name, () => {
  it('reads the sandbox, network, env and the four process limits from the spec', () => {
    const policy = sandboxPolicy(
      spec(
        'execution_policy: {sandbox: bwrap, env: {A: b}}\nlimits: {max_processes: 9, max_cpu_seconds: 5}',
      ),
    );
    expect(policy).toEqual({
      sandbox: 'bwrap',
      allowGitWrites: false,
      allowNetwork: false,
      env: { A: 'b' },
      limits: {
        processes: 9,
        addressSpaceBytes: 8 * 1024 ** 3,
        fileBytes: 1024 ** 3,
        cpuSeconds: 5,
      },
    });
  });
});

describe(planSpawn.name, () => {
  it('local: the command itself with the allowlisted environment only', () => {
    const plan = planSpawn(
      ['/bin/bash', '-c', 'true'],
      '/w',
      sandboxPolicy(spec('execution_policy: {sandbox: local}')),
    );
    expect(plan).toMatchObject({
      file: '/bin/bash',
      args: ['-c', 'true'],
      sandbox: 'local',
      cgroup: null,
    });
    expect(Object.keys(plan.env).sort()).toEqual(['HOME', 'LANG', 'PATH', 'TERM']);
  });

  const withBwrap = probeBwrap().ok ? it : it.skip;
  withBwrap('bwrap: bubblewrap with the same environment, the command last', () => {
    const plan = planSpawn(
      ['git', 'status'],
      __dirname,
      sandboxPolicy(spec('execution_policy: {sandbox: bwrap}')),
    );
    expect(plan.file).toBe('bwrap');
    expect(plan.args.slice(-3)).toEqual(['--', 'git', 'status']);
    expect(plan.args).toContain('--unshare-net');
    expect(plan.env.HOME).toBe('/tmp');
  });
});

describe(withResolvedSandbox.name, () => {
  it('keeps local as it is, without warnings of its own', () => {
    const resolved = withResolvedSandbox(spec('execution_policy: {sandbox: local}'), 't.yaml');
    expect(resolved).toMatchObject({ sandbox: 'local', warnings: [] });
  });

  it('resolves auto by the probe: bwrap when it works, else local with the NO isolation warning', () => {
    const resolved = withResolvedSandbox(spec(''), 't.yaml');
    expect(resolved.spec.execution_policy.sandbox).toBe(resolved.sandbox);
    if (probeBwrap().ok) expect(resolved).toMatchObject({ sandbox: 'bwrap', warnings: [] });
    else
      expect(resolved.warnings.join('\n')).toMatch(
        /"auto" and bubblewrap does not work here.*\n.*NO isolation/,
      );
  });
});
