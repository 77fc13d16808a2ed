import * as v8 from 'node:v8';

/** Largest `SUPERQODE_A2A_HEAP_GROWTH_PERCENT`: V8's own factor is at most 4 (300 %). */
export const MAX_HEAP_GROWTH_PERCENT = 300;

/**
 * Sets how far V8 lets the old generation grow past what survived the last full collection
 * before it collects again: to (1 + `percent` / 100) × the live heap, through V8's
 * `--heap-growing-percent` flag, which V8 reads each time it recomputes its limits after a
 * mark-compact (so it applies from the next one). Without it V8 picks the factor from the
 * collector's speed, up to 4× on a machine whose heap limit is 2 GiB or more: a server whose
 * modules keep ~30 MB live then lets its heap reach ~130 MB under load before collecting.
 *
 * Process-wide: only a server that is its own process calls it (`npm run start:prod`,
 * `superqode serve a2a`), or an embedding application that asks for it.
 * @param percent - 0 leaves V8's own factor (and any `--heap-growing-percent` given to `node`);
 *   1–{@link MAX_HEAP_GROWTH_PERCENT} sets it.
 * @returns Whether the factor was set.
 * @throws {RangeError} `percent` not an integer in 0–{@link MAX_HEAP_GROWTH_PERCENT}.
 * @see https://nodejs.org/api/v8.html#v8setflagsfromstringflags
 */
export function applyHeapGrowth(percent: number): boolean {
  if (!Number.isInteger(percent) || percent < 0 || percent > MAX_HEAP_GROWTH_PERCENT)
    throw new RangeError(`heap growth percent must be an integer 0–${MAX_HEAP_GROWTH_PERCENT}`);
  if (percent === 0) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}
