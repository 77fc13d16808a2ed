import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, requireBuiltCli } from '../fakes/client-cli';

/**
 * Module paths (in `require.cache`) of each feature's commands and heavy dependencies (the error
 * map, `src/common/errors/error-map.ts`, loads a few small error classes of every feature).
 */
const FEATURE = {
  typeorm: /node_modules\/typeorm\//,
  aiSdk: /node_modules\/(ai|@ai-sdk\/[^/]+)\//,
  harness: /dist\/modules\/harness\/(commands|ledger|harness\.module)/,
  tui: /dist\/modules\/tui\//,
  client: /dist\/modules\/client\/commands\//,
  keys: /dist\/modules\/auth\/commands\/a2a-keys/,
  serve: /dist\/modules\/transport\/commands\//,
  tasks: /dist\/modules\/tasks\/(commands\/db-migrate|configured-tasks)/,
} as const;
type Feature = keyof typeof FEATURE;

describe('superqode builds one CLI container per command line (built CLI, spawned; issue #13)', () => {
  let dir: string;
  let probe: string;

  beforeAll(() => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'sq-container-'));
    // Preloaded into the CLI: prints every module it loaded when it exits.
    probe = join(dir, 'probe.js');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write('\\n' + JSON.stringify(Object.keys(require.cache))));",
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs `superqode …args` in a fresh HOME; returns its exit code and the features it loaded. */
  function run(...args: string[]): { status: number | null; stdout: string; loaded: Feature[] } {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !/API_KEY$/.test(k) && !k.startsWith('SUPERQODE_'),
      ),
    );
    const r = spawnSync(process.execPath, ['--require', probe, CLI, ...args], {
      cwd: dir,
      env: { ...env, HOME: join(dir, 'home') },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const modules = JSON.parse(r.stderr.slice(r.stderr.lastIndexOf('\n["') + 1)) as string[];
    const loaded = (Object.keys(FEATURE) as Feature[]).filter((f) =>
      modules.some((m) => FEATURE[f].test(m)),
    );
    return { status: r.status, stdout: r.stdout, loaded };
  }

  it('a2a list loads the client commands only: no TypeORM, AI SDK, harness, TUI or other commands', () => {
    const r = run('a2a', 'list');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^no saved connections/);
    expect(r.loaded).toEqual(['client']);
  });

  it('a2a-keys secret loads the API-key commands only', () => {
    const r = run('a2a-keys', 'secret');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^[A-Za-z0-9_-]{43,}\n$/);
    expect(r.loaded).toEqual(['keys']);
  });

  it('harness validate loads the harness commands, not TypeORM (the ledger), the client, TUI, server or key commands', () => {
    const r = run('harness', 'validate', 'coding');
    expect([r.status, r.stdout]).toEqual([0, 'valid: builtin-coding (coding)\n']);
    expect(r.loaded).toContain('harness');
    expect(
      r.loaded.filter((f) => ['typeorm', 'client', 'tui', 'serve', 'keys', 'tasks'].includes(f)),
    ).toEqual([]);
  });

  it('a2a reconcile still runs (it loads the task store on demand)', () => {
    const r = run('a2a', 'reconcile', '--dry-run', '--task-store', join(dir, 'tasks.sqlite'));
    expect([r.status, r.stdout]).toEqual([0, '0 interrupted task(s) (dry run: nothing changed)\n']);
    expect(r.loaded).toEqual(expect.arrayContaining(['client', 'typeorm']));
  });

  it('an unknown command still gets every command (commander suggests from the full tree)', () => {
    const r = run('a2a-key', 'secret');
    expect(r.status).toBe(2);
    expect(r.loaded).toEqual(expect.arrayContaining(['client', 'keys', 'serve', 'harness', 'tui']));
  });
});

describe('the server loads the AI SDK, ioredis, pg, yaml and fast-glob only when it uses them (issue #13)', () => {
  it('requiring dist/app.module loads none of `ai`, the @ai-sdk providers, ioredis, pg, yaml, fast-glob', () => {
    requireBuiltCli();
    const script =
      'require(process.argv[1]); process.stdout.write(JSON.stringify(Object.keys(require.cache)));';
    const r = spawnSync(process.execPath, ['-e', script, join(CLI, '..', 'app.module.js')], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(0);
    const modules = JSON.parse(r.stdout) as string[];
    expect(modules.length).toBeGreaterThan(100);
    const unused = /node_modules\/(ai|@ai-sdk\/[^/]+|ioredis|pg|yaml|fast-glob)\//;
    expect(modules.filter((m) => unused.test(m))).toEqual([]);
  });
});
