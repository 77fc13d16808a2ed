import { Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { LRUCache } from 'lru-cache';
import { Clock } from '../../common/runtime/clock';

/** Most callers tracked at once; the least recently seen is forgotten first. */
export const MAX_TRACKED_CALLERS = 20_000;

interface Window {
  hits: number;
  /** Epoch ms when the fixed window ends. */
  endsAtMs: number;
}

/** Counters `/health` reports. */
export interface ThrottleStats {
  /** Callers with a live per-caller window (other windows, e.g. failed authentications, not counted). */
  trackedCallers: number;
  /** Requests counted in the current global (daily) window. */
  globalCount: number;
}

/**
 * In-memory fixed-window counters for @nestjs/throttler, bounded: at most
 * {@link MAX_TRACKED_CALLERS} windows (LRU), so a flood of distinct callers cannot grow memory
 * without bound. Keys are `<throttler>|<tracker>`. Times returned in seconds (throttler v6 contract).
 * @see @nestjs/throttler ThrottlerStorage.
 */
@Injectable()
export class BoundedThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new LRUCache<string, Window>({ max: MAX_TRACKED_CALLERS });

  constructor(private readonly clock: Clock) {}

  async increment(
    key: string,
    ttlMs: number,
    limit: number,
  ): Promise<{
    totalHits: number;
    timeToExpire: number;
    isBlocked: boolean;
    timeToBlockExpire: number;
  }> {
    const now = this.clock.now().getTime();
    let w = this.windows.get(key);
    if (!w || w.endsAtMs <= now) {
      w = { hits: 0, endsAtMs: now + ttlMs };
      this.windows.set(key, w);
    }
    w.hits += 1;
    const timeToExpire = Math.max(1, Math.ceil((w.endsAtMs - now) / 1000));
    const isBlocked = w.hits > limit;
    if (isBlocked) w.hits = limit + 1; // a refused request does not keep inflating the count
    return {
      totalHits: w.hits,
      timeToExpire,
      isBlocked,
      timeToBlockExpire: isBlocked ? timeToExpire : 0,
    };
  }

  /**
   * The live window of a key without counting a hit: hits so far and seconds until it ends
   * (at least 1); undefined when there is none or it has ended.
   */
  peek(key: string): { hits: number; timeToExpireS: number } | undefined {
    const now = this.clock.now().getTime();
    const w = this.windows.get(key);
    if (!w || w.endsAtMs <= now) return undefined;
    return { hits: w.hits, timeToExpireS: Math.max(1, Math.ceil((w.endsAtMs - now) / 1000)) };
  }

  /** Live counters (expired windows are not counted). */
  stats(): ThrottleStats {
    const now = this.clock.now().getTime();
    let trackedCallers = 0;
    let globalCount = 0;
    for (const [key, w] of this.windows.entries()) {
      if (w.endsAtMs <= now) continue;
      if (key.startsWith('global|')) globalCount = Math.min(w.hits, Number.MAX_SAFE_INTEGER);
      else if (key.startsWith('caller|')) trackedCallers += 1;
    }
    return { trackedCallers, globalCount };
  }
}
