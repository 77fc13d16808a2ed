import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import type { Command } from 'commander';
import { collectHelp } from '../../src/cli/collect-help';
import { CLI_HELP } from '../../src/cli/help-snapshot';
import { CLI_OPTIONS, commanderExitCode, commanderOf, createCli } from '../../src/cli/run-cli';
import { PACKAGE_VERSION } from '../../src/modules/health/package-version';
import { CLI, requireBuiltCli } from '../fakes/client-cli';

/** An exit of the CLI under test: commander's (through the error handler) or process.exit. */
class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** Every command of the tree with its path below the root. */
function commandsOf(root: Command, path: string[] = []): { path: string[]; cmd: Command }[] {
  return root.commands.flatMap((cmd) => [
    { path: [...path, cmd.name()], cmd },
    ...commandsOf(cmd, [...path, cmd.name()]),
  ]);
}

describe('superqode usage errors (one CLI container, in process): every command exits 2', () => {
  let app: INestApplicationContext;
  let root: Command;
  let stderr = '';

  beforeAll(async () => {
    jest.spyOn(process, 'exit').mockImplementation((code?: string | number | null) => {
      throw new Exit(Number(code ?? 0));
    });
    app = await createCli({
      ...CLI_OPTIONS,
      errorHandler: (err) => {
        throw new Exit(commanderExitCode(err));
      },
      outputConfiguration: { writeErr: (s) => (stderr += s), writeOut: () => undefined },
    });
    root = commanderOf(app);
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await app?.close();
  });

  /** The exit code commander ends `superqode …args` with (undefined: the command would run). */
  async function exitOf(args: string[]): Promise<number | undefined> {
    stderr = '';
    try {
      await root.parseAsync(['node', 'superqode', ...args]);
    } catch (err) {
      if (err instanceof Exit) return err.code;
      throw err;
    }
    return undefined;
  }

  it('an unknown flag on any command exits 2 and names the flag', async () => {
    const paths = commandsOf(root)
      .map((c) => c.path)
      .filter((p) => p[p.length - 1] !== 'help');
    expect(paths.length).toBeGreaterThanOrEqual(20);
    for (const path of paths) {
      expect({ path, code: await exitOf([...path, '--no-such-flag']) }).toEqual({ path, code: 2 });
      // Commands with a required option report that one first.
      expect(stderr).toMatch(/unknown option '--no-such-flag'|required option/);
    }
  });

  it('a missing required argument or option exits 2 and names it', async () => {
    const needy = commandsOf(root).filter(
      ({ cmd }) =>
        cmd.registeredArguments.some((a) => a.required) || cmd.options.some((o) => o.mandatory),
    );
    expect(needy.map((c) => c.path.join(' '))).toEqual(
      expect.arrayContaining(['a2a call', 'connect a2a', 'harness run']),
    );
    for (const { path } of needy) {
      expect({ path, code: await exitOf(path) }).toEqual({ path, code: 2 });
      expect(stderr).toMatch(/missing required argument|required option/);
    }
  });

  it('the help command exits 0, as --help does', async () => {
    expect(await exitOf(['help'])).toBe(0);
    expect(await exitOf(['help', 'a2a'])).toBe(0);
  });

  it('an unknown command exits 2', async () => {
    expect(await exitOf(['no-such-command'])).toBe(2);
    // A group's own action answers an unknown subcommand: usage on stdout, exit code 2.
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await exitOf(['harness', 'no-such-command'])).toBeUndefined();
      expect(process.exitCode).toBe(2);
      expect(write).toHaveBeenCalledWith(expect.stringMatching(/^Usage: superqode harness /));
    } finally {
      write.mockRestore();
      process.exitCode = undefined;
    }
  });

  it('the pre-rendered help of the fast path is exactly what each command prints', () => {
    // On failure: `npx tsc -p tsconfig.build.json && node scripts/generate-cli-help.mjs`.
    expect(CLI_HELP).toEqual(collectHelp(root));
  });
});

describe('superqode --version and --help (built CLI, spawned)', () => {
  const heavy =
    /node_modules\/(@nestjs|@a2a-js|typeorm|ai|@ai-sdk|nest-commander|better-sqlite3)\//;
  let probe: string;

  beforeAll(() => {
    requireBuiltCli();
    // Preloaded into the CLI: prints every module it loaded when it exits.
    probe = join(mkdtempSync(join(tmpdir(), 'sq-probe-')), 'probe.js');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write(JSON.stringify(Object.keys(require.cache))));",
    );
  });

  function run(...args: string[]): { status: number | null; stdout: string; loaded: string[] } {
    const r = spawnSync(process.execPath, ['--require', probe, CLI, ...args], {
      encoding: 'utf8',
      timeout: 25_000,
    });
    return {
      status: r.status,
      stdout: r.stdout,
      loaded: JSON.parse(r.stderr.slice(r.stderr.lastIndexOf('["'))) as string[],
    };
  }

  it('--version prints the package version without loading Nest, the SDK, TypeORM or the AI SDK', () => {
    const r = run('--version');
    expect(r).toMatchObject({ status: 0, stdout: `${PACKAGE_VERSION}\n` });
    expect(r.loaded.filter((m) => heavy.test(m))).toEqual([]);
  });

  it('serve a2a --help prints the command help the same way', () => {
    const r = run('serve', 'a2a', '--help');
    expect(r).toMatchObject({ status: 0, stdout: CLI_HELP['serve a2a'] });
    expect(r.stdout).toMatch(/^Usage: superqode serve a2a \[options\]/);
    expect(r.loaded.filter((m) => heavy.test(m))).toEqual([]);
  });

  it('a usage error of a subcommand exits 2 (the full CLI)', () => {
    const r = spawnSync(process.execPath, [CLI, 'a2a', 'call'], {
      encoding: 'utf8',
      timeout: 25_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/missing required argument 'name'/);
  });
});
