import { Module } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { storesConfig } from '../../config/namespaces';
import { RuntimeModule } from '../../common/runtime/runtime.module';
import { BoundedThrottlerStorage } from './bounded-throttler.storage';
import { RATE_LIMIT_STORAGE, rateLimitStorage } from './shared-throttler.storage';

/**
 * The rate-limit counter stores: this instance's bounded memory (failed-authentication windows,
 * `/health` counters) and {@link RATE_LIMIT_STORAGE}, the throttler's (Redis with `--redis-url`).
 */
@Module({
  imports: [RuntimeModule],
  providers: [
    BoundedThrottlerStorage,
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [storesConfig.KEY, BoundedThrottlerStorage],
      useFactory: (config: ConfigType<typeof storesConfig>, local: BoundedThrottlerStorage) =>
        rateLimitStorage(config.redisUrl, local, config.taskDatabaseUrl !== null),
    },
  ],
  exports: [BoundedThrottlerStorage, RATE_LIMIT_STORAGE],
})
export class RateLimitStorageModule {}
