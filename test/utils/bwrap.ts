import { probeBwrap } from '../../src/modules/harness/sandbox/sandbox-probe';

/**
 * `describe` for suites that need a working bubblewrap. Where it does not work: under `CI=true`
 * the suite fails loudly (one failing test naming the reason; `.ci/run` installs bubblewrap);
 * elsewhere it is skipped with a message saying how to install it.
 */
export function describeWithBwrap(name: string, body: () => void): void {
  const probe = probeBwrap();
  if (probe.ok) return describe(name, body);
  if (process.env.CI === 'true') {
    return describe(name, () => {
      it('needs bubblewrap (CI=true: not skipped)', () => {
        throw new Error(`bubblewrap does not work here: ${probe.reason}`);
      });
    });
  }
  console.warn(
    `skipping "${name}": bubblewrap does not work here (${probe.reason}); apt-get install bubblewrap`,
  );
  describe.skip(name, body);
}
