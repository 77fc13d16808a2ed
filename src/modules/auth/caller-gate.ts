import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ForbiddenException, Inject, Injectable } from '@nestjs/common';
import type { Type } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { ConfigType } from '@nestjs/config';
import type { Principal } from '../../common/auth/principal';
import proxyAddr from '@fastify/proxy-addr';
import { accessConfig, serverConfig } from '../../config/namespaces';
import { A2aThrottlerGuard } from './a2a-throttler.guard';
import { AuthFailureLimiter } from './auth-failures';
import { bearerCredential } from './bearer-credential';
import { BearerStrategy } from './bearer.strategy';
import { anonymousPrincipal } from './callers';

/** What the gate reads of a request: its headers and client address (`request.ip`). */
export interface CallerRequest {
  readonly headers: IncomingHttpHeaders;
  readonly ip: string;
  principal?: Principal;
}

/**
 * The access checks of the global guards (`A2aAuthGuard`, then `A2aThrottlerGuard`) for a
 * request served before Fastify's routing (SendMessage, issue #14), where Nest's guards do not
 * run. It only ever admits what the guards would admit, and leaves every other outcome to them:
 * - {@link principalOf}: the caller of a request the auth guard would let through (anonymous
 *   without a credential while anonymous access is on; the operator token or a valid signed API
 *   key, checked by the same strategy), else undefined: a refusal (401, 400, the failed-auth
 *   budget's 429) is then the guard's to give, on Fastify's path, with its side effects;
 * - {@link admit}: the rate limits, by the throttler guard itself (same storage, windows and
 *   429), as for a request to `controller.handler`.
 * @see A2aAuthGuard, A2aThrottlerGuard (the guards it mirrors).
 */
@Injectable()
export class CallerGate {
  private readonly trustProxy: (address: string, hop: number) => boolean;

  constructor(
    @Inject(accessConfig.KEY) private readonly access: ConfigType<typeof accessConfig>,
    @Inject(serverConfig.KEY) private readonly server: ConfigType<typeof serverConfig>,
    private readonly strategy: BearerStrategy,
    private readonly failures: AuthFailureLimiter,
    private readonly throttler: A2aThrottlerGuard,
  ) {
    const hops = server.trustedProxyHops;
    this.trustProxy = (_address, hop) => hop < hops;
  }

  /**
   * The client address as Fastify's `request.ip` gives it: the socket's peer, or with
   * `--trusted-proxy-hops N` the address N hops back in `X-Forwarded-For` (Fastify's own
   * `@fastify/proxy-addr`). Undefined once the socket is gone.
   */
  addressOf(req: IncomingMessage): string | undefined {
    if (this.server.trustedProxyHops === 0) return req.socket.remoteAddress;
    const addresses = proxyAddr.all(req, this.trustProxy);
    return addresses[addresses.length - 1];
  }

  /** The caller as the auth guard would set it, or undefined when the guard must answer. */
  principalOf(request: CallerRequest): Principal | undefined {
    if (request.headers.authorization === undefined) {
      return this.access.allowAnonymous ? anonymousPrincipal(request) : undefined;
    }
    try {
      this.failures.assertUnderBudget(request.ip);
      const token = bearerCredential({ headers: request.headers, query: undefined });
      return token === undefined ? undefined : this.strategy.validate(token);
    } catch {
      return undefined;
    }
  }

  /**
   * Counts the request against the rate limits of its caller (`request.principal`).
   * @param controller - The controller class whose route the request stands for.
   * @param handler - That route's method (the guards read its metadata).
   * @throws {A2aHttpException} 429 naming the limit, with `Retry-After`.
   */
  async admit(
    request: CallerRequest,
    controller: Type,
    handler: (...args: never[]) => unknown,
  ): Promise<void> {
    const context = new ExecutionContextHost([request, undefined], controller, handler);
    if (!(await this.throttler.canActivate(context))) throw new ForbiddenException(); // as Nest's guard consumer
  }
}
