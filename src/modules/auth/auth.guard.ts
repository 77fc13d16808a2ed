import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../common/auth/principal';
import { IS_PUBLIC_KEY } from '../../common/decorators/public.decorator';
import { unauthorized } from '../../common/errors/http-rejections';
import type { ConfigType } from '@nestjs/config';
import { accessConfig } from '../../config/namespaces';
import { AuthFailureLimiter } from './auth-failures';
import { bearerCredential, credentialPresented } from './bearer-credential';
import { BEARER_STRATEGY } from './bearer.strategy';
import { anonymousPrincipal } from './callers';

/**
 * Deny-by-default authentication for every route without `@Public()`:
 * - no credential → the anonymous tier (or 401 when anonymous access is off);
 * - a credential → it must verify (operator token or signed API key), else 401 with the reason:
 *   a bad credential is never served as anonymous;
 * - past the per-address budget of failed authentications, 429 before any verification.
 * Sets `request.principal` for the call context, task ownership and rate limits.
 * @see RFC 6750 §2.1 (Authorization: Bearer), §3 (WWW-Authenticate).
 */
@Injectable()
export class A2aAuthGuard extends AuthGuard(BEARER_STRATEGY) {
  constructor(
    private readonly reflector: Reflector,
    @Inject(accessConfig.KEY) private readonly config: ConfigType<typeof accessConfig>,
    private readonly failures: AuthFailureLimiter,
  ) {
    super({ session: false });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [
        context.getHandler(),
        context.getClass(),
      ])
    ) {
      return true;
    }
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!credentialPresented(request)) {
      if (!this.config.allowAnonymous) {
        throw unauthorized(
          'This agent requires a credential: send Authorization: Bearer <API key or token>.',
          false,
        );
      }
      request.principal = anonymousPrincipal(request);
      return true;
    }
    this.failures.assertUnderBudget(request.ip);
    try {
      bearerCredential(request); // one well-formed credential, or 400/401; passport reads the same one
      return (await super.canActivate(context)) as boolean;
    } catch (err) {
      await this.failures.record(request.ip);
      throw err;
    }
  }

  override handleRequest<T = Principal>(
    err: unknown,
    user: unknown,
    _info: unknown,
    context: ExecutionContext,
  ): T {
    if (err) throw err;
    if (!user) throw unauthorized('Invalid bearer credential.', true);
    context.switchToHttp().getRequest<FastifyRequest>().principal = user as Principal;
    return user as T;
  }
}
