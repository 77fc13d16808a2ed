import {
  applyHeapGrowth,
  DEFAULT_HEAP_GROWTH_PERCENT,
  heapGrowthPercent,
  LARGE_HEAP_LIMIT_BYTES,
  MAX_HEAP_GROWTH_PERCENT,
  MIN_HEAP_GROWTH_PERCENT,
} from './heap-growth';

const GIB = 1024 ** 3;

describe(heapGrowthPercent.name, () => {
  it('unset: the default where V8 would grow up to 4× (heap limit ≥ 2 GiB), V8 alone below', () => {
    expect(heapGrowthPercent(undefined, 4 * GIB, [])).toBe(DEFAULT_HEAP_GROWTH_PERCENT);
    expect(heapGrowthPercent(undefined, LARGE_HEAP_LIMIT_BYTES, [])).toBe(100);
    expect(heapGrowthPercent(undefined, LARGE_HEAP_LIMIT_BYTES - 1, [])).toBe(0);
    expect(heapGrowthPercent(undefined, 1 * GIB, ['--max-old-space-size=1024'])).toBe(0);
  });

  it('unset: leaves a --heap-growing-percent given to node alone', () => {
    expect(heapGrowthPercent(undefined, 4 * GIB, ['--heap-growing-percent=30'])).toBe(0);
    expect(heapGrowthPercent(undefined, 4 * GIB, ['--heap_growing_percent=30'])).toBe(0);
  });

  it('an explicit setting wins, whatever the heap limit (0: V8 alone)', () => {
    expect(heapGrowthPercent(50, 1 * GIB, [])).toBe(50);
    expect(heapGrowthPercent(0, 4 * GIB, [])).toBe(0);
  });
});

describe(applyHeapGrowth.name, () => {
  it('0 leaves V8 alone (false); the e2e suite heap-growth checks a positive value in a child process', () => {
    expect(applyHeapGrowth(0)).toBe(false);
  });

  it.each([-1, 1, MIN_HEAP_GROWTH_PERCENT - 1, 1.5, Number.NaN, MAX_HEAP_GROWTH_PERCENT + 1])(
    'refuses %p (RangeError)',
    (p) => {
      expect(() => applyHeapGrowth(p)).toThrow(RangeError);
    },
  );
});
