import { Module } from '@nestjs/common';
import { RuntimeModule } from '../../common/runtime/runtime.module';
import { BoundedThrottlerStorage } from './bounded-throttler.storage';

/** The one rate-limit counter store (shared by the throttler guard and `/health`). */
@Module({
  imports: [RuntimeModule],
  providers: [BoundedThrottlerStorage],
  exports: [BoundedThrottlerStorage],
})
export class RateLimitStorageModule {}
