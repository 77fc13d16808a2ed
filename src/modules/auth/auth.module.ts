import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { limitsConfig } from '../../config/namespaces';
import { A2aThrottlerGuard, throttlerOptions } from './a2a-throttler.guard';
import { ApiKeysModule } from './api-keys.module';
import { AuthFailureLimiter } from './auth-failures';
import { A2aAuthGuard } from './auth.guard';
import { BearerStrategy } from './bearer.strategy';
import { CallerGate } from './caller-gate';
import { RateLimitStorageModule } from './rate-limit-storage.module';
import { RATE_LIMIT_STORAGE } from './shared-throttler.storage';
import { TrustedProxyNotice } from './trusted-proxy.notice';

/**
 * Access tiers and rate limits for every non-public route. Guards run in this order:
 * authentication (sets the principal), then the rate limits (which read it).
 */
@Module({
  imports: [
    PassportModule,
    ApiKeysModule,
    RateLimitStorageModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitStorageModule],
      inject: [limitsConfig.KEY, RATE_LIMIT_STORAGE],
      useFactory: throttlerOptions,
    }),
  ],
  providers: [
    BearerStrategy,
    AuthFailureLimiter,
    TrustedProxyNotice,
    A2aThrottlerGuard,
    CallerGate,
    { provide: APP_GUARD, useClass: A2aAuthGuard },
    { provide: APP_GUARD, useExisting: A2aThrottlerGuard },
  ],
  exports: [AuthFailureLimiter, CallerGate],
})
export class AuthModule {}
