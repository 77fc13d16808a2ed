import { Controller, Get, Header, HttpCode, Options, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { A2aConfig } from '../../config/a2a.config';
import { requestedA2aVersion } from '../../common/http/a2a-version';
import { Public } from '../../common/decorators/public.decorator';
import { AgentCardService } from './agent-card.service';
import { ICON_PATH } from './agent-card.constants';
import { packagePath } from '../../common/runtime/package-root';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Last-Modified, Cache-Control, Vary',
};
const ICON = readFileSync(packagePath('assets', 'icon.svg'));

/**
 * Discovery: the Agent Card at both well-known paths (GET, HEAD, CORS preflight) and the icon.
 * Never authenticated nor throttled. Conditional requests follow RFC 9110 §13:
 * `If-None-Match` (list, `*`, weak form) wins over `If-Modified-Since`.
 * @see A2A specification §8.2 Agent Card discovery; RFC 9110 §8.8 validators, §13.1 preconditions.
 */
@Public()
@Controller()
export class AgentCardController {
  constructor(
    private readonly cards: AgentCardService,
    private readonly config: A2aConfig,
  ) {}

  /** Serves the card variant the request's A2A-Version selects; 304 when the client's copy is current. */
  @Get(['.well-known/agent-card.json', '.well-known/agent.json'])
  serve(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const variant = this.cards.variantFor(requestedA2aVersion(request));
    const maxAge = this.config.cardCacheMaxAgeS;
    reply
      .headers(CORS_HEADERS)
      .header('cache-control', maxAge > 0 ? `public, max-age=${maxAge}` : 'no-cache')
      .header('etag', variant.etag)
      .header('last-modified', this.cards.lastModified.toUTCString())
      .header('vary', 'A2A-Version');
    if (isNotModified(request, variant.etag, this.cards.lastModified)) {
      reply.code(304).send();
      return;
    }
    reply.code(200).header('content-type', 'application/json').send(variant.body);
  }

  /** CORS preflight for the card (any origin may read it). */
  @Options(['.well-known/agent-card.json', '.well-known/agent.json'])
  @HttpCode(204)
  @Header('access-control-allow-origin', '*')
  @Header('access-control-allow-methods', 'GET, HEAD, OPTIONS')
  @Header('access-control-allow-headers', 'A2A-Version, If-None-Match, If-Modified-Since')
  @Header('access-control-max-age', '86400')
  preflight(): void {}

  /** The icon `iconUrl` points at. */
  @Get(ICON_PATH.slice(1))
  @Header('content-type', 'image/svg+xml')
  @Header('cache-control', 'public, max-age=86400')
  icon(): Buffer {
    return ICON;
  }
}

function isNotModified(request: FastifyRequest, etag: string, lastModified: Date): boolean {
  const inm = request.headers['if-none-match'];
  if (typeof inm === 'string') {
    return inm
      .split(',')
      .map((t) => t.trim().replace(/^W\//, ''))
      .some((t) => t === '*' || t === etag);
  }
  const ims = request.headers['if-modified-since'];
  if (typeof ims !== 'string') return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && lastModified.getTime() <= since;
}
