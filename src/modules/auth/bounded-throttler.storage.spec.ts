import { Clock } from '../../common/runtime/clock';
import { BoundedThrottlerStorage, MAX_TRACKED_CALLERS } from './bounded-throttler.storage';

class FixedClock extends Clock {
  constructor(public ms: number) {
    super();
  }
  override now(): Date {
    return new Date(this.ms);
  }
}

describe(BoundedThrottlerStorage.name, () => {
  it('counts hits in a fixed window and blocks past the limit with the seconds left', async () => {
    const clock = new FixedClock(1_000_000);
    const s = new BoundedThrottlerStorage(clock);
    expect((await s.increment('caller|ip:a', 60_000, 2)).isBlocked).toBe(false);
    expect((await s.increment('caller|ip:a', 60_000, 2)).isBlocked).toBe(false);
    clock.ms += 15_000;
    const third = await s.increment('caller|ip:a', 60_000, 2);
    expect(third).toMatchObject({ isBlocked: true, timeToBlockExpire: 45 });
    clock.ms += 45_000;
    expect((await s.increment('caller|ip:a', 60_000, 2)).isBlocked).toBe(false);
  });

  it(`never tracks more than ${MAX_TRACKED_CALLERS} callers, however many distinct ones arrive`, async () => {
    const s = new BoundedThrottlerStorage(new FixedClock(0));
    for (let i = 0; i < MAX_TRACKED_CALLERS + 5_000; i++)
      await s.increment(`caller|ip:${i}`, 60_000, 10);
    await s.increment('global|all', 86_400_000, 100_000);
    const stats = s.stats();
    expect(stats.trackedCallers).toBeLessThanOrEqual(MAX_TRACKED_CALLERS);
    expect(stats.globalCount).toBe(1);
  });
});
