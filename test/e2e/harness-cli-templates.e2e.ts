import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { HarnessCommandsModule } from '../../src/modules/harness/commands/harness-commands.module';
import { tempCheckout } from '../fakes/harness-fixtures';
import { runCommandInProcessWithoutSettings } from '../utils/in-process-cli';

const CLI = join(__dirname, '../../dist/cli.js');
/** Runs the built CLI without provider keys or server settings in the environment. */
function cli(
  args: string[],
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/API_KEY$/.test(k) && !k.startsWith('SUPERQODE_')),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env, timeout: 30_000 },
      (err, stdout, stderr) => {
        resolve({
          status: err ? (typeof err.code === 'number' ? err.code : null) : 0,
          stdout,
          stderr,
        });
      },
    );
  });
}

/**
 * The same command in process (issue #13): the template names are resolved by the command's own
 * code; {@link cli} stays as the smoke test of the built CLI (`harness validate coding`).
 */
const cliInProcess = (args: string[], cwd: string) =>
  runCommandInProcessWithoutSettings([HarnessCommandsModule], args, cwd);

describe('The harness CLI accepts built-in template names wherever it takes a spec (issue #16)', () => {
  const checkout = tempCheckout({ 'README.md': '# demo\n' });
  afterAll(() => checkout.remove());

  it.each(['coding', 'read-only', 'no-tool'])(
    'harness validate %s is valid (exit 0)',
    async (name) => {
      const run = await (name === 'coding' ? cli : cliInProcess)(
        ['harness', 'validate', name],
        checkout.dir,
      );
      expect([run.status, run.stdout]).toEqual([0, `valid: builtin-${name} (${name})\n`]);
    },
  );

  it('harness validate of a missing file still fails (exit 1)', async () => {
    const run = await cliInProcess(['harness', 'validate', 'no-such-spec.yaml'], checkout.dir);
    expect(run.status).toBe(1);
  });

  it('harness run --spec read-only gets past the spec (fails on the missing model, not the spec)', async () => {
    const run = await cliInProcess(
      ['harness', 'run', '--spec', 'read-only', '--working-dir', checkout.dir, 'hello'],
      checkout.dir,
    );
    expect(run.status).toBe(1);
    expect(run.stderr).not.toMatch(/read-only.*(ENOENT|cannot read|not found)/i);
    expect(run.stderr).toMatch(/provider/);
  });
});
