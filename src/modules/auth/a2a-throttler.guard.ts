import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ThrottlerGuard,
  ThrottlerModuleOptions,
  ThrottlerStorage,
  getOptionsToken,
  getStorageToken,
} from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import type { ConfigType } from '@nestjs/config';
import { limitsConfig } from '../../config/namespaces';
import type { LimitSettings } from '../../config/namespaces';
import { IS_PUBLIC_KEY } from '../../common/decorators/public.decorator';
import { tooManyRequests } from '../../common/errors/http-rejections';
import type { Principal } from '../../common/auth/principal';

/** Names of the three windows. */
export const CALLER_THROTTLER = 'caller';
export const ANONYMOUS_DAY_THROTTLER = 'anonymous-day';
export const GLOBAL_THROTTLER = 'global';

/**
 * Rate limits after authentication, checked in this order: a per-caller window (anonymous and
 * keyed figures per minute; the operator is exempt), the anonymous callers' joint share of the
 * daily ceiling (so anonymous traffic cannot lock key holders and the operator out), and the
 * global daily ceiling every tier counts against. A request refused by an earlier window never
 * consumes a later one's budget. Public routes
 * (discovery, health) are never throttled. Over a limit: 429 naming the limit, `Retry-After`.
 * @see docs: issue #3 (rate limits); @nestjs/throttler ThrottlerGuard.
 */
@Injectable()
export class A2aThrottlerGuard extends ThrottlerGuard {
  constructor(
    @Inject(getOptionsToken()) options: ThrottlerModuleOptions,
    @Inject(getStorageToken()) storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(limitsConfig.KEY) private readonly config: ConfigType<typeof limitsConfig>,
  ) {
    super(options, storage, reflector);
  }

  /**
   * Public routes, and requests no window counts ({@link windowsCount}: every limit that applies
   * to the caller's tier is 0), skip the windows' look-ups altogether.
   */
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    const tier = context.switchToHttp().getRequest<FastifyRequest>().principal?.tier;
    return (
      !windowsCount(this.config, tier) ||
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [
        context.getHandler(),
        context.getClass(),
      ]) === true
    );
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw tooManyRequests(this.messageFor(detail), detail.timeToBlockExpire);
  }

  private messageFor(detail: ThrottlerLimitDetail): string {
    if (detail.key.startsWith(`${GLOBAL_THROTTLER}|`)) {
      return `Global daily ceiling of ${detail.limit} requests reached; try again later.`;
    }
    if (detail.key.startsWith(`${ANONYMOUS_DAY_THROTTLER}|`)) {
      return (
        `Anonymous callers' share of the daily ceiling (${detail.limit} of ${this.config.globalPerDay} requests) ` +
        'reached; send an API key or try again later.'
      );
    }
    return `Per-caller limit of ${detail.limit} requests per minute reached.`;
  }
}

/** Requests per day anonymous callers may make together (floor of share x ceiling). */
export function anonymousDailyLimit(config: LimitSettings): number {
  return Math.floor(config.globalPerDay * config.anonymousShareOfDay);
}

/** Per-caller tracker: the API key id, `operator`, or the client address. */
export function callerTracker(req: Pick<FastifyRequest, 'principal' | 'ip'>): string {
  const p = req.principal;
  if (p?.keyId) return `key:${p.keyId}`;
  if (p?.tier === 'operator') return 'operator';
  return `ip:${req.ip}`;
}

/** A caller's tier as the windows read it (`request.principal?.tier`). */
type Tier = Principal['tier'] | undefined;

/** The per-caller window's limit for `tier`: keyed or anonymous figure per minute (0: off). */
const perMinuteOf = (config: LimitSettings, tier: Tier): number =>
  tier === 'keyed' ? config.keyedPerMinute : config.anonymousPerMinute;

/** Whether the per-caller window skips a request of `tier` (operator exempt, or limit 0). */
const callerWindowSkips = (config: LimitSettings, tier: Tier): boolean =>
  tier === 'operator' || perMinuteOf(config, tier) === 0;

/** Whether the anonymous callers' daily share skips a request of `tier`. */
const anonymousDaySkips = (config: LimitSettings, tier: Tier): boolean =>
  config.globalPerDay === 0 || config.anonymousShareOfDay >= 1 || tier !== 'anonymous';

/** Whether the global daily ceiling skips every request (ceiling 0). */
const globalSkips = (config: LimitSettings): boolean => config.globalPerDay === 0;

/**
 * Whether any of the three windows counts a request of a caller of `tier`. When none does (every
 * limit that applies to the tier is 0, as behind a gateway that limits), `A2aThrottlerGuard` lets
 * the request through without touching its storage; the guard then skips at once (issue #14:
 * its look-ups cost on every SendMessage).
 */
export function windowsCount(config: LimitSettings, tier: Tier): boolean {
  return !(
    callerWindowSkips(config, tier) &&
    anonymousDaySkips(config, tier) &&
    globalSkips(config)
  );
}

/** Throttler module options from the configuration (0 turns a ceiling off). */
export function throttlerOptions(
  config: LimitSettings,
  storage: ThrottlerStorage,
): ThrottlerModuleOptions {
  const tierOf = (ctx: ExecutionContext): Tier =>
    ctx.switchToHttp().getRequest<FastifyRequest>().principal?.tier;
  return {
    storage,
    setHeaders: false,
    generateKey: (_ctx, tracker, name) => `${name}|${tracker}`,
    throttlers: [
      {
        name: CALLER_THROTTLER,
        ttl: 60_000,
        limit: (ctx) => perMinuteOf(config, tierOf(ctx)),
        getTracker: (req) => callerTracker(req as FastifyRequest),
        skipIf: (ctx) => callerWindowSkips(config, tierOf(ctx)),
      },
      {
        name: ANONYMOUS_DAY_THROTTLER,
        ttl: 86_400_000,
        limit: anonymousDailyLimit(config),
        getTracker: () => 'anonymous',
        skipIf: (ctx) => anonymousDaySkips(config, tierOf(ctx)),
      },
      {
        name: GLOBAL_THROTTLER,
        ttl: 86_400_000,
        limit: config.globalPerDay,
        getTracker: () => 'all',
        skipIf: () => globalSkips(config),
      },
    ],
  };
}
