import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_JS, MAIN_JS, startBuiltServer } from '../utils/built-server';

/** The built helper (`applyHeapGrowth`). */
const HEAP_GROWTH_JS = join(__dirname, '../../dist/common/runtime/heap-growth.js');

/** Heap limit of the churn children: one where V8's own factor reaches 4× on any machine. */
const CHURN_HEAP_MIB = 4096;

/**
 * A child Node process (heap limit {@link CHURN_HEAP_MIB} MiB) that applies `percent` through the
 * built helper, keeps ~60 MB live and churns objects that live long enough to be promoted, then
 * die: the largest old space it saw and the old space live at the end (after a full GC), bytes.
 */
async function churn(percent: number): Promise<{ max: number; live: number }> {
  const script = `
    const v8 = require('node:v8');
    require(${JSON.stringify(HEAP_GROWTH_JS)}).applyHeapGrowth(${percent});
    const oldUsed = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
    const kept = Array.from({ length: 200000 }, (_, i) => ({ i, s: ('kept-' + i).padEnd(64, '.') }));
    const ring = new Array(50000);
    let max = 0;
    for (let i = 0; i < 3000000; i++) {
      ring[i % ring.length] = { i, s: ('gone-' + i).padEnd(64, '.'), a: [i, i + 1] };
      if (i % 1000 === 0) max = Math.max(max, oldUsed());
    }
    ring.fill(undefined);
    global.gc();
    console.log(JSON.stringify({ max, live: oldUsed(), kept: kept.length }));`;
  const args = ['--expose-gc', `--max-old-space-size=${CHURN_HEAP_MIB}`, '-e', script];
  const { stdout } = await promisify(execFile)(process.execPath, args, { encoding: 'utf8' });
  return JSON.parse(stdout) as { max: number; live: number };
}

const GROWTH_LINE =
  /V8 heap growth: ([\d.]+)× the live heap \(SUPERQODE_A2A_HEAP_GROWTH_PERCENT=(\w+)\)/;

describe('V8 heap growth of a server that is its own process (issue #14, RSS)', () => {
  beforeAll(() => {
    if (!existsSync(MAIN_JS)) throw new Error('dist/main.js is missing: run `npm run build`');
  });

  it('the helper bounds the old space: at 100 % its largest size stays well under what V8 allows by itself', async () => {
    const [own, twice] = await Promise.all([churn(0), churn(100)]);
    // Same program, same live heap; only the growth factor differs (V8's own is up to 4×).
    expect(Math.abs(twice.live - own.live) / own.live).toBeLessThan(0.1);
    expect(twice.max).toBeLessThan(own.max * 0.75);
  });

  it('start:prod: unset, 2× where V8 would allow 4× (heap limit ≥ 2 GiB), V8 alone under it; 0 leaves V8 alone', async () => {
    const node = (heapMiB: number) => ({ args: [`--max-old-space-size=${heapMiB}`, MAIN_JS] });
    const debug = { SUPERQODE_A2A_LOG_LEVEL: 'debug' };
    const large = await startBuiltServer(debug, node(4096));
    expect(GROWTH_LINE.exec(await large.stop())?.slice(1)).toEqual(['2', 'unset']);
    const small = await startBuiltServer(debug, node(1024));
    const smallOut = await small.stop();
    expect(smallOut).not.toMatch(GROWTH_LINE);
    expect(smallOut).toMatch(
      /V8 heap growth: V8's own factor \(SUPERQODE_A2A_HEAP_GROWTH_PERCENT=unset, heap limit \d+ MiB\)/,
    );
    const off = await startBuiltServer(
      { ...debug, SUPERQODE_A2A_HEAP_GROWTH_PERCENT: '0' },
      node(4096),
    );
    const offOut = await off.stop();
    expect(offOut).toMatch(/listening on/);
    expect(offOut).not.toMatch(GROWTH_LINE);
  });

  it('serve a2a applies the variable; a value out of range stops the start naming it', async () => {
    const served = await startBuiltServer(
      { SUPERQODE_A2A_LOG_LEVEL: 'debug', SUPERQODE_A2A_HEAP_GROWTH_PERCENT: '50' },
      { args: [CLI_JS, 'serve', 'a2a'] },
    );
    expect(GROWTH_LINE.exec(await served.stop())?.slice(1)).toEqual(['1.5', '50']);
    const refused = spawnSync(process.execPath, [MAIN_JS], {
      env: {
        PATH: process.env.PATH,
        SUPERQODE_A2A_PORT: '0',
        SUPERQODE_A2A_HEAP_GROWTH_PERCENT: '301',
      },
      cwd: tmpdir(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(refused.status).toBe(1);
    // One JSON log line: the message's quotes are escaped.
    expect(refused.stdout + refused.stderr).toMatch(
      /SUPERQODE_A2A_HEAP_GROWTH_PERCENT=\\"301\\": must be at most 300/,
    );
  });
});
