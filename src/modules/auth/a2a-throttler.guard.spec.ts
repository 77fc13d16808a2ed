import type { ExecutionContext } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { LimitSettings } from '../../config/namespaces';
import { throttlerOptions, windowsCount } from './a2a-throttler.guard';

/** An execution context whose request carries a caller of `tier` (or none). */
const contextOf = (tier: string | undefined): ExecutionContext =>
  ({
    switchToHttp: () => ({
      getRequest: () => ({ principal: tier === undefined ? undefined : { tier } }),
    }),
  }) as unknown as ExecutionContext;

const TIERS = ['anonymous', 'keyed', 'operator', undefined] as const;
const SETTINGS: LimitSettings[] = [];
for (const anonymousPerMinute of [0, 10])
  for (const keyedPerMinute of [0, 60])
    for (const globalPerDay of [0, 1000])
      for (const anonymousShareOfDay of [0.5, 1])
        SETTINGS.push({
          anonymousPerMinute,
          keyedPerMinute,
          globalPerDay,
          anonymousShareOfDay,
          authFailuresPerMinute: 10,
        });

describe(windowsCount.name, () => {
  it.each(SETTINGS.flatMap((config) => TIERS.map((tier) => [config, tier] as const)))(
    'is false exactly when every window of the guard skips the request (%j, tier %s)',
    (config, tier) => {
      const { throttlers } = throttlerOptions(config, {} as ThrottlerStorage) as {
        throttlers: { skipIf: (ctx: ExecutionContext) => boolean }[];
      };
      const everySkips = throttlers.every((t) => t.skipIf(contextOf(tier)));

      expect(windowsCount(config, tier)).toBe(!everySkips);
    },
  );

  it.each(SETTINGS.flatMap((config) => TIERS.map((tier) => [config, tier] as const)))(
    'agrees with the documented limits: the daily ceiling counts every tier, the per-minute window all but the operator (%j, tier %s)',
    (config, tier) => {
      const perMinute = tier === 'keyed' ? config.keyedPerMinute : config.anonymousPerMinute;
      const expected = config.globalPerDay > 0 || (tier !== 'operator' && perMinute > 0);

      expect(windowsCount(config, tier)).toBe(expected);
    },
  );

  it('counts anonymous callers under the default limits, and nobody when every limit is 0', () => {
    const on = SETTINGS.find((s) => s.anonymousPerMinute > 0 && s.globalPerDay > 0)!;
    const off = SETTINGS.find(
      (s) => s.anonymousPerMinute + s.keyedPerMinute + s.globalPerDay === 0,
    )!;

    expect(TIERS.map((tier) => windowsCount(on, tier))).toEqual([true, true, true, true]);
    expect(TIERS.map((tier) => windowsCount(off, tier))).toEqual([false, false, false, false]);
  });
});
