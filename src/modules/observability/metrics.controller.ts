import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../common/decorators/public.decorator';
import { unauthorized } from '../../common/errors/http-rejections';
import { A2aConfig, isLoopbackHost } from '../../config/a2a.config';
import { bearerCredential } from '../auth/bearer-credential';
import { MetricsService } from './metrics.service';

/**
 * `GET /metrics`: Prometheus text exposition (`text/plain; version=0.0.4`). On a loopback bind it
 * is open (like `/health`); on a remote bind only the operator token (`Authorization: Bearer`,
 * compared in constant time) reads it, else 401. Never throttled.
 * @see https://prometheus.io/docs/instrumenting/exposition_formats/
 */
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: A2aConfig,
  ) {}

  /** @throws {A2aHttpException} 401 on a remote bind without the operator token. */
  @Get()
  async scrape(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!isLoopbackHost(this.config.host)) {
      const presented = request.headers.authorization ? bearerCredential(request) : undefined;
      if (!presented || !this.config.matchesOperatorToken(presented)) {
        throw unauthorized('On a remote bind, /metrics needs the operator token.', !!presented);
      }
    }
    const { contentType, body } = await this.metrics.render();
    await reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  }
}
