import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './test-app';

/** `dist/main.js` (`npm run build` makes it). */
export const MAIN_JS = join(__dirname, '../../dist/main.js');
/** `dist/cli.js`. */
export const CLI_JS = join(__dirname, '../../dist/cli.js');

/** A built server run as its own process (stdout captured), on loopback and a free port. */
export interface BuiltServer {
  child: ChildProcess;
  /** Base URL from the banner's "listening on" line. */
  url: string;
  /** Working directory of the process (a fresh temp dir, holding the stores). */
  dir: string;
  /** Output so far (stdout and stderr, as received). */
  output(): string;
  /** Waits until the output matches `pattern` (rejects when the process exits first). */
  waitFor(pattern: RegExp): Promise<void>;
  /** SIGTERM, then waits for the exit; removes `dir`. */
  stop(): Promise<string>;
}

/**
 * Spawns `command` (default `node dist/main.js`) in a temp working dir with SQLite stores there,
 * port 0 and the harness off, plus `env`; resolves once the banner's first line is out.
 * @param wrap - Builds the argv from `node <script>` (e.g. to run it under `script -qfc` for a TTY).
 */
export async function startBuiltServer(
  env: Record<string, string> = {},
  opts: { args?: string[]; wrap?: (argv: string[]) => string[]; dir?: string } = {},
): Promise<BuiltServer> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'sq-built-'));
  const argv = [process.execPath, ...(opts.args ?? [MAIN_JS])];
  const [cmd, ...args] = opts.wrap ? opts.wrap(argv) : argv;
  const child = spawn(cmd, args, {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      SUPERQODE_A2A_PORT: '0',
      SUPERQODE_A2A_HARNESS_ENABLED: 'false',
      SUPERQODE_A2A_TASK_STORE_PATH: join(dir, 'tasks.sqlite3'),
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: (() => void)[] = [];
  const onData = (chunk: Buffer): void => {
    out += chunk.toString('utf8');
    waiters.splice(0).forEach((w) => w());
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waitFor = async (pattern: RegExp): Promise<void> => {
    while (!pattern.test(out)) {
      const more = new Promise<void>((resolve) => waiters.push(resolve));
      const ended = await Promise.race([more.then(() => false), exited.then(() => true)]);
      if (ended && !pattern.test(out)) {
        throw new Error(`server exited before ${pattern}:\n${out}`);
      }
    }
  };
  const listening = /listening on (http:\/\/[\w.:[\]-]+)/;
  await waitFor(listening);
  const url = listening.exec(out)![1];
  return {
    child,
    url,
    dir,
    output: () => out,
    waitFor,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
      return out;
    },
  };
}

/** A `dist/main.js` process started by {@link spawnHealthyMain}, and its base URL. */
export interface SpawnedMain {
  proc: ChildProcess;
  url: string;
}

/**
 * Spawns `node dist/main.js` with only `PATH`, a free loopback port, log level `error` and `env`
 * (output ignored), and resolves once `GET /health` answers 200 (polled every 100 ms).
 * For suites that SIGKILL or restart servers on a shared store.
 * @param attempts - Polls before giving up (the process is then SIGKILLed).
 * @throws {Error} `server did not start` after `attempts` polls.
 */
export async function spawnHealthyMain(
  env: Record<string, string>,
  attempts = 200,
): Promise<SpawnedMain> {
  const port = await freePort();
  const proc = spawn(process.execPath, [MAIN_JS], {
    env: {
      PATH: process.env.PATH ?? '',
      SUPERQODE_A2A_PORT: String(port),
      SUPERQODE_A2A_LOG_LEVEL: 'error',
      ...env,
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < attempts; i++) {
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { proc, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill('SIGKILL');
  throw new Error('server did not start');
}
