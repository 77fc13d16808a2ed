import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const ROOT_FILE = 'src/modules/observability/root.controller.ts';

/**
 * Gives the copy in `dir` the checkout's node_modules: hard links where the file system allows
 * (`cp -al`, a fraction of a second), so the build info's `../node_modules/…` paths still name the
 * same files and tsc re-checks nothing; a symlink otherwise (tsc then sees the real paths, finds
 * every file new and checks the whole program again: slower, same result).
 */
function linkNodeModules(dir: string): void {
  const copied = spawnSync('cp', ['-al', join(ROOT, 'node_modules'), join(dir, 'node_modules')]);
  if (copied.status === 0) return;
  rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
}

/**
 * `npm run start:dev` (scripts/dev.mjs) in a temp copy of the checkout: it compiles, starts the
 * server, and after a source edit compiles again and restarts it with the edit. Slow (tsc reads
 * the whole program even when its build info says nothing changed), hence the generous timeout.
 */
describe('npm run start:dev (issue #19)', () => {
  let dir: string;
  let dev: ChildProcess | undefined;
  afterAll(async () => {
    if (dev && dev.exitCode === null) {
      const exited = new Promise((resolve) => dev!.once('exit', resolve));
      dev.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('restarts the server with the change after a source file is edited', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sq-dev-'));
    for (const p of [
      'src',
      'scripts/dev.mjs',
      'assets',
      'data',
      'package.json',
      'tsconfig.json',
      'tsconfig.build.json',
      // The build `npm test` made before jest, with its .tsbuildinfo: as after a developer's own
      // earlier build, tsc --watch's first compile re-checks only what changed since (nothing).
      'dist',
    ]) {
      cpSync(join(ROOT, p), join(dir, p), { recursive: true });
    }
    linkNodeModules(dir);
    dev = spawn(process.execPath, [join(dir, 'scripts/dev.mjs')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        SUPERQODE_A2A_PORT: '0',
        SUPERQODE_A2A_HARNESS_ENABLED: 'false',
        SUPERQODE_A2A_LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const waiters: (() => void)[] = [];
    const collect = (c: Buffer): void => {
      out += c.toString('utf8');
      waiters.splice(0).forEach((w) => w());
    };
    dev.stdout!.on('data', collect);
    dev.stderr!.on('data', collect);
    const urls = (): string[] =>
      [...out.matchAll(/listening on (http:\/\/[\w.:[\]-]+)/g)].map((m) => m[1]);
    const until = async (done: () => boolean): Promise<void> => {
      while (!done()) await new Promise<void>((resolve) => waiters.push(resolve));
    };

    await until(() => urls().length >= 1);
    const first = (await (await fetch(`${urls()[0]}/`)).json()) as { name: string };
    expect(first.name).toBe('SuperQode A2A agent');

    const file = join(dir, ROOT_FILE);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace("'SuperQode A2A agent'", "'Edited agent'"),
    );
    await until(() => urls().length >= 2);
    expect(out).toContain('[dev] compiled: restarting the server');
    const second = (await (await fetch(`${urls()[1]}/`)).json()) as { name: string };
    expect(second.name).toBe('Edited agent');
  }, 300_000);
});
