import { timeOrderedId } from './time-ordered-id';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedId', () => {
  it('is an RFC 9562 version 7 UUID whose first 48 bits are the time in ms', () => {
    const id = timeOrderedId(0x0192_3456_789a);
    expect(id).toMatch(V7);
    expect(id.startsWith('01923456-789a-7')).toBe(true);
  });

  it('sorts by time across milliseconds and keeps 74 random bits within one', () => {
    const earlier = timeOrderedId(1_765_000_000_000);
    const later = timeOrderedId(1_765_000_000_001);
    expect(earlier < later).toBe(true);
    const sameMs = new Set(Array.from({ length: 1000 }, () => timeOrderedId(1_765_000_000_000)));
    expect(sameMs.size).toBe(1000);
    for (const id of sameMs) expect(id).toMatch(V7);
    // The random tail differs in more than a counter's low bits.
    const tails = [...sameMs].map((id) => id.slice(15));
    expect(new Set(tails.map((t) => t.slice(0, 6))).size).toBeGreaterThan(900);
  });

  it('defaults to now', () => {
    const before = Date.now();
    const ms = parseInt(timeOrderedId().replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });
});
