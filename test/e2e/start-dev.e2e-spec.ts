import { ChildProcess, spawn } from 'node:child_process';
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
 * `npm run start:dev` (scripts/dev.mjs) in a temp copy of the checkout: it compiles, starts the
 * server, and after a source edit compiles again and restarts it with the edit. Slow (a full tsc
 * watch compile on a loaded machine), hence the generous timeout.
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
    ]) {
      cpSync(join(ROOT, p), join(dir, p), { recursive: true });
    }
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
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
