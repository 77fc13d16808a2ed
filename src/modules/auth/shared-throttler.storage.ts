import { Logger, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';
import type { BoundedThrottlerStorage } from './bounded-throttler.storage';

/** Injection token of the counter store the throttler guard uses (Redis or this instance's). */
export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');

/** How long a connection attempt (and the first hits, waiting for it) may take, ms. */
const CONNECT_TIMEOUT_MS = 2_000;

type Hit = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** `redis://user@host:port/db` without the password, for logs (never echoes an unparsable URL). */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return 'redis://(unparsable URL)';
  }
}

/**
 * The per-caller windows and the daily ceilings in Redis, shared by every instance (issue #15),
 * through `@nest-lab/throttler-storage-redis` (one Lua script per hit: INCR + PEXPIRE + block key).
 * Commands fail fast while Redis is unreachable (no offline queue, one retry); such a hit is then
 * counted by this instance's own {@link BoundedThrottlerStorage}, with one warning per outage, so
 * the service keeps serving under per-instance limits instead of failing every request.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly logger = new Logger('RateLimits');
  private readonly redis: Redis;
  private readonly shared: ThrottlerStorageRedisService;
  private degraded = false;
  /** Resolves once the first connection is ready, or after the connect timeout. */
  private readonly firstConnection: Promise<void>;

  /** @param url - `redis://` or `rediss://` URL (may carry a password: never logged). */
  constructor(
    url: string,
    private readonly local: BoundedThrottlerStorage,
  ) {
    // Loaded here: only a server configured with Redis loads ioredis (issue #13).
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { default: RedisClient } = require('ioredis') as { default: typeof Redis };
    const { ThrottlerStorageRedisService: RedisStorage } =
      require('@nest-lab/throttler-storage-redis') as {
        ThrottlerStorageRedisService: typeof ThrottlerStorageRedisService;
      };
    /* eslint-enable @typescript-eslint/no-require-imports */
    this.redis = new RedisClient(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: CONNECT_TIMEOUT_MS,
      lazyConnect: false,
    });
    // ioredis emits 'error' on every failed reconnect; the first failed hit logs the outage.
    this.redis.on('error', () => undefined);
    // Without an offline queue, commands sent before the first connection fail at once: the first
    // hits wait for it (ready or failed, at most the connect timeout), so a starting instance
    // does not count alone.
    this.firstConnection = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CONNECT_TIMEOUT_MS).unref();
      const settle = () => {
        clearTimeout(timer);
        resolve();
      };
      this.redis.once('ready', settle);
      this.redis.once('error', settle);
    });
    this.shared = new RedisStorage(this.redis);
    this.logger.log(`Rate limits shared by all instances in Redis ${redactRedisUrl(url)}`);
  }

  /** One hit, counted in Redis (or locally while Redis does not answer). Times in seconds. */
  async increment(
    key: string,
    ttlMs: number,
    limit: number,
    blockDurationMs: number,
    throttlerName: string,
  ): Promise<Hit> {
    await this.firstConnection;
    try {
      const hit = await this.shared.increment(key, ttlMs, limit, blockDurationMs, throttlerName);
      if (this.degraded) this.logger.log('Redis answers again: rate limits are shared again');
      this.degraded = false;
      return hit;
    } catch (error) {
      if (!this.degraded) {
        this.logger.warn(
          `Redis did not answer (${(error as Error).message}): this instance counts rate limits alone until it does`,
        );
      }
      this.degraded = true;
      return this.local.increment(key, ttlMs, limit);
    }
  }

  onModuleDestroy(): void {
    this.redis.disconnect(false);
  }
}

/**
 * The throttler's counter store: Redis with a URL, else this instance's bounded memory, which
 * says at start that N instances then allow N times each limit.
 */
export function rateLimitStorage(
  redisUrl: string | null,
  local: BoundedThrottlerStorage,
  clustered: boolean,
): ThrottlerStorage {
  if (redisUrl) return new RedisThrottlerStorage(redisUrl, local);
  const say = 'Rate limits are counted by this instance alone (no --redis-url)';
  const logger = new Logger('RateLimits');
  if (clustered)
    logger.warn(`${say}: behind a load balancer, N instances allow N times each limit`);
  else logger.log(say);
  return local;
}
