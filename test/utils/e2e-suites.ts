import { join } from 'node:path';

/** Directory of the e2e suites (`test/e2e/<name>.e2e.ts`). */
const SUITES_DIR = join(__dirname, '..', 'e2e');

/**
 * Runs the named e2e suites (`test/e2e/<name>.e2e.ts`) in the calling jest file, each inside
 * its own `describe(name)`: a suite's top-level hooks and tests stay in its block, its module
 * scope stays its own, and `-t '^name '` selects it.
 * Why (issue #13): jest gives every test file a fresh module registry, so each file loaded the
 * app again (~0.6 CPU-s per file, 79 files); a group file (`test/e2e/groups/*.e2e-spec.ts`)
 * loads it once for all its suites. What suites of one group share: the module registry (module
 * state under `src/`, as two servers of one suite do), `process` (a suite restores the
 * variables, spies and working directory it changes) and `jest.setTimeout` (the last call of
 * the group wins, so a suite that needs more than the project's 60 s says so once and the whole
 * group gets it).
 */
export function describeSuites(names: readonly string[]): void {
  for (const name of names) {
    describe(name, () => {
      // A require, not an import: the suite's describe/it/hooks must register inside this block.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(join(SUITES_DIR, `${name}.e2e.ts`));
    });
  }
}
