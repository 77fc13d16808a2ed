import { Controller, Get, Inject, Optional, Req, Res } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../common/decorators/public.decorator';
import { unauthorized } from '../../common/errors/http-rejections';
import { accessConfig, serverConfig } from '../../config/namespaces';
import { AuthFailureLimiter } from '../auth/auth-failures';
import { bearerCredential } from '../auth/bearer-credential';
import { MetricsService } from './metrics.service';

/**
 * `GET /metrics`: Prometheus text exposition (`text/plain; version=0.0.4`). On a loopback bind it
 * is open (like `/health`); on a remote bind only the operator token (`Authorization: Bearer`,
 * compared in constant time) reads it, else 401; wrong tokens spend the address's failed-credential
 * budget like on the RPC routes (then 429). Not rate-limited otherwise.
 * @see https://prometheus.io/docs/instrumenting/exposition_formats/
 */
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    @Inject(serverConfig.KEY) private readonly server: ConfigType<typeof serverConfig>,
    @Inject(accessConfig.KEY) private readonly access: ConfigType<typeof accessConfig>,
    /** The auth guard's failed-credential budget per address (429 once spent). */
    @Optional() private readonly failures?: AuthFailureLimiter,
  ) {}

  /**
   * @throws {A2aHttpException} 401 on a remote bind without the operator token; 429 once the
   *   address spent its failed-credential budget.
   */
  @Get()
  async scrape(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!this.server.loopback) {
      this.failures?.assertUnderBudget(request.ip);
      const presented = request.headers.authorization ? bearerCredential(request) : undefined;
      if (!presented || !this.access.matchesOperatorToken(presented)) {
        if (presented) await this.failures?.record(request.ip);
        throw unauthorized('On a remote bind, /metrics needs the operator token.', !!presented);
      }
    }
    const { contentType, body } = await this.metrics.render();
    await reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  }
}
