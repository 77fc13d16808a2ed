import { jsonDepth } from './json-depth';

describe(jsonDepth.name, () => {
  it('counts nesting of objects and arrays; scalars are depth 0', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{}')).toBe(1);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[{{{","b":"\\"[[[\\\\"}')).toBe(1);
  });

  it('scans a 500,000-deep document without recursion and stops early past the limit', () => {
    const deep = '['.repeat(500_000) + ']'.repeat(500_000);
    expect(jsonDepth(deep)).toBe(500_000);
    expect(jsonDepth(deep, 64)).toBe(65);
  });
});
