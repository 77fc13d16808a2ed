import { applyHeapGrowth, MAX_HEAP_GROWTH_PERCENT } from './heap-growth';

describe(applyHeapGrowth.name, () => {
  it('0 leaves V8 alone (false); the e2e suite heap-growth checks a positive value in a child process', () => {
    expect(applyHeapGrowth(0)).toBe(false);
  });

  it.each([-1, 1.5, Number.NaN, MAX_HEAP_GROWTH_PERCENT + 1])('refuses %p (RangeError)', (p) => {
    expect(() => applyHeapGrowth(p)).toThrow(RangeError);
  });
});
