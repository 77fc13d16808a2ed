import { spawn, spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { MAIN_JS, startBuiltServer } from '../utils/built-server';
import type { BuiltServer } from '../utils/built-server';

const DIST = join(__dirname, '../../dist');

/**
 * Opens the store at `path` through the built `openStore` in a child process that first loads its
 * modules, then waits for the wall-clock instant `atMs`, so that several children open together.
 * @returns The child's exit code and output ("opened", or the error).
 */
function openInChild(
  store: 'tasks' | 'harness',
  path: string,
  atMs: number,
): Promise<{ code: number | null; out: string }> {
  const options =
    store === 'tasks'
      ? `require(${JSON.stringify(`${DIST}/modules/tasks/tasks-datasource.js`)}).tasksDataSourceOptions(path)`
      : `require(${JSON.stringify(`${DIST}/modules/harness/ledger/harness-ledger-datasource.js`)}).harnessDataSourceOptions(path)`;
  const script = `
    const { openStore } = require(${JSON.stringify(`${DIST}/common/database/store-migrations.js`)});
    const path = process.argv[1];
    const options = ${options};
    setTimeout(async () => {
      try { const s = await openStore(options); await s.destroy(); console.log('opened'); }
      catch (e) { console.log(String(e && e.message)); process.exitCode = 1; }
    }, Math.max(0, ${atMs} - Date.now()));`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script, path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

describe('Servers started together on one working directory', () => {
  it.each(['tasks', 'harness'] as const)(
    'eight processes opening a new SQLite %s store in the same instant all open it',
    async (store) => {
      const dir = mkdtempSync(join(tmpdir(), 'sq-together-'));
      try {
        const atMs = Date.now() + 1500;
        const path = join(dir, `${store}.sqlite3`);
        const results = await Promise.all(
          Array.from({ length: 8 }, () => openInChild(store, path, atMs)),
        );
        expect(results.map((r) => r.out.trim())).toEqual(Array(8).fill('opened'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  /**
   * Runs `check` on a new store file in a temp dir whose write lock this process holds (an open
   * `BEGIN IMMEDIATE` that created a table; the file in WAL mode when `wal`), then cleans up.
   */
  async function withHeldStore(
    wal: boolean,
    check: (path: string, dir: string, holder: Database.Database) => Promise<void> | void,
  ): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'sq-together-'));
    const path = join(dir, 'tasks.sqlite3');
    const holder = new Database(path);
    try {
      if (wal) holder.pragma('journal_mode = WAL');
      holder.exec('BEGIN IMMEDIATE');
      holder.exec('CREATE TABLE "held" ("a")');
      await check(path, dir, holder);
    } finally {
      holder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it(
    'a store whose write lock another process holds past the busy timeout fails to open, naming the file and what to do',
    () =>
      withHeldStore(true, async (path, _dir, holder) => {
        const result = await openInChild('tasks', path, Date.now());
        expect(result.code).toBe(1);
        expect(result.out).toContain(`The store ${path} is locked by another process`);
        expect(result.out).toContain('start again once that process is done');
        holder.exec('COMMIT');
        expect((await openInChild('tasks', path, Date.now())).out.trim()).toBe('opened');
      }),
    30_000,
  );

  it('a server on a new store file another process holds locked (not yet WAL) stops with that reason, logged once and without a stack', () =>
    withHeldStore(false, (path, dir) => {
      const r = spawnSync(process.execPath, [MAIN_JS], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 30_000,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          SUPERQODE_A2A_PORT: '0',
          SUPERQODE_A2A_HARNESS_ENABLED: 'false',
          SUPERQODE_A2A_TASK_STORE_PATH: path,
        },
      });
      const out = r.stdout + r.stderr;
      expect(r.status).toBe(1);
      expect(out.match(/is locked by another process/g)).toHaveLength(1);
      expect(out).toContain(`The store ${path} is locked by another process`);
      expect(out).not.toMatch(/Retrying|\n\s+at /);
    }));

  it('four built servers started at once on a new SQLite task store all come up, and each serves SendMessage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-together-'));
    const started = await Promise.allSettled(
      Array.from({ length: 4 }, () => startBuiltServer({}, { dir })),
    );
    const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    try {
      expect(started.filter((r) => r.status === 'rejected')).toEqual([]);
      for (const server of servers) {
        const sent = await post(
          server.url,
          aJsonRpcRequest('SendMessage', { message: aMessage('which harness for rust') }),
          V1,
        );
        expect(sent.status).toBe(200);
        expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
        expect(server.output()).not.toMatch(/already exists|Unable to connect to the database/);
      }
    } finally {
      await Promise.all(servers.map((s: BuiltServer) => s.stop()));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
