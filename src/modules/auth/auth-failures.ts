import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { limitsConfig } from '../../config/namespaces';
import { tooManyRequests } from '../../common/errors/http-rejections';
import { BoundedThrottlerStorage } from './bounded-throttler.storage';

/** Window of the failed-authentication budget, ms. */
export const AUTH_FAILURE_WINDOW_MS = 60_000;

/**
 * Failed authentications counted per client address (`request.ip`, which honours
 * X-Forwarded-For only through the trusted proxy hops) in a fixed one-minute window, in the
 * bounded rate-limit storage (`auth-failures|<address>`). Past the configured budget, any
 * credential from that address is refused with 429 before it is verified, so guessing keys or
 * the operator token costs a minute per few guesses. Callers without a credential are not counted.
 */
@Injectable()
export class AuthFailureLimiter {
  constructor(
    private readonly storage: BoundedThrottlerStorage,
    @Inject(limitsConfig.KEY) private readonly config: ConfigType<typeof limitsConfig>,
  ) {}

  /**
   * @param address - Client address of the request.
   * @throws {A2aHttpException} 429 with `Retry-After` (seconds left in the window) when the
   *   address has used its budget.
   */
  assertUnderBudget(address: string): void {
    const budget = this.config.authFailuresPerMinute;
    if (budget === 0) return;
    const window = this.storage.peek(keyOf(address));
    if (window && window.hits >= budget) {
      throw tooManyRequests(
        `Too many failed authentications from this address (limit ${budget} per minute); try again later.`,
        window.timeToExpireS,
      );
    }
  }

  /** Counts one failed authentication from `address` (no-op when the budget is off). */
  async record(address: string): Promise<void> {
    const budget = this.config.authFailuresPerMinute;
    if (budget > 0) await this.storage.increment(keyOf(address), AUTH_FAILURE_WINDOW_MS, budget);
  }
}

function keyOf(address: string): string {
  return `auth-failures|${address}`;
}
