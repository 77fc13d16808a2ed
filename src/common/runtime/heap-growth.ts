import * as v8 from 'node:v8';

/** Largest `SUPERQODE_A2A_HEAP_GROWTH_PERCENT`: V8's own factor is at most 4 (300 %). */
export const MAX_HEAP_GROWTH_PERCENT = 300;
/** Smallest non-zero one: V8's own factor is never under 1.1 (a full GC after every 10 %). */
export const MIN_HEAP_GROWTH_PERCENT = 10;
/** What a server that is its own process applies when the setting is unset (twice the live heap). */
export const DEFAULT_HEAP_GROWTH_PERCENT = 100;
/**
 * Heap limit from which V8 lets the old generation grow up to 4× the live heap; under it V8
 * caps its own factor at 1.3–2× (V8 `MemoryController::MaxGrowingFactor`: 1,024 MB ×
 * `kPointerMultiplier`, 2 on Node's x64 builds), so the default would raise it there.
 */
export const LARGE_HEAP_LIMIT_BYTES = 2 * 1024 ** 3;

/**
 * The growth a server that is its own process applies: an explicit setting as given (0: none);
 * unset, {@link DEFAULT_HEAP_GROWTH_PERCENT} where V8's own factor can reach 4× (heap limit of
 * 2 GiB or more), and none where it cannot (a smaller machine or container, or
 * `--max-old-space-size` under 2 GiB: V8's own is then already 2× or less) or where `node` was
 * started with its own `--heap-growing-percent`.
 * @param setting - `SUPERQODE_A2A_HEAP_GROWTH_PERCENT`, undefined when unset.
 * @param heapLimitBytes - V8's heap limit (`v8.getHeapStatistics().heap_size_limit`).
 * @param execArgv - Node's own options (`process.execArgv`).
 * @returns Percent for {@link applyHeapGrowth}; 0 = leave V8 alone.
 */
export function heapGrowthPercent(
  setting: number | undefined,
  heapLimitBytes: number = v8.getHeapStatistics().heap_size_limit,
  execArgv: readonly string[] = process.execArgv,
): number {
  if (setting !== undefined) return setting;
  const nodeSetsIt = execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a));
  return heapLimitBytes >= LARGE_HEAP_LIMIT_BYTES && !nodeSetsIt ? DEFAULT_HEAP_GROWTH_PERCENT : 0;
}

/**
 * Sets how far V8 lets the old generation grow past what survived the last full collection
 * before it collects again: to (1 + `percent` / 100) × the live heap, through V8's
 * `--heap-growing-percent` flag, which V8 reads each time it recomputes its limits after a
 * mark-compact (so it applies from the next one), in place of the factor it would pick from the
 * collector's speed (up to 4× with a heap limit of 2 GiB or more: a server whose modules keep
 * ~30 MB live then lets its heap reach ~130 MB under load before collecting).
 *
 * Process-wide, and it stays set: only a server that is its own process calls it (`npm run
 * start:prod`, `superqode serve a2a`, through {@link heapGrowthPercent}), or an embedding
 * application that asks for it.
 * @param percent - 0 leaves V8 alone; {@link MIN_HEAP_GROWTH_PERCENT}–{@link MAX_HEAP_GROWTH_PERCENT} sets it.
 * @returns Whether the factor was set.
 * @throws {RangeError} `percent` not 0 nor an integer in 10–300.
 * @see https://nodejs.org/api/v8.html#v8setflagsfromstringflags
 */
export function applyHeapGrowth(percent: number): boolean {
  if (percent === 0) return false;
  if (
    !Number.isInteger(percent) ||
    percent < MIN_HEAP_GROWTH_PERCENT ||
    percent > MAX_HEAP_GROWTH_PERCENT
  )
    throw new RangeError(
      `heap growth percent must be 0 or an integer ${MIN_HEAP_GROWTH_PERCENT}–${MAX_HEAP_GROWTH_PERCENT}`,
    );
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}

/**
 * Applies a server's setting ({@link heapGrowthPercent}, then {@link applyHeapGrowth}) and says
 * what V8 now does, for the start-up log: `V8 heap growth: 2× the live heap
 * (SUPERQODE_A2A_HEAP_GROWTH_PERCENT=unset)`, or `V8's own factor (…, heap limit 1072 MiB)`.
 * @param setting - `SUPERQODE_A2A_HEAP_GROWTH_PERCENT`, undefined when unset.
 */
export function applyHeapGrowthSetting(setting: number | undefined): string {
  const heapLimitBytes = v8.getHeapStatistics().heap_size_limit;
  const percent = heapGrowthPercent(setting, heapLimitBytes);
  const given = `SUPERQODE_A2A_HEAP_GROWTH_PERCENT=${setting ?? 'unset'}`;
  return applyHeapGrowth(percent)
    ? `V8 heap growth: ${1 + percent / 100}× the live heap (${given})`
    : `V8 heap growth: V8's own factor (${given}, heap limit ${Math.round(heapLimitBytes / 1024 ** 2)} MiB)`;
}
