import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConfigType } from '@nestjs/config';
import { cardConfig } from '../../config/namespaces';
import { requestedA2aVersion } from '../../common/http/a2a-version';
import { AGENT_CARD_PATHS } from './agent-card.constants';
import { AgentCardService } from './agent-card.service';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Last-Modified, Cache-Control, Vary',
};

/**
 * Discovery: the Agent Card at both well-known paths (GET, HEAD; CORS preflights are answered by
 * the transport's request guards, `registerRequestGuards`), registered as
 * plain Fastify routes. The card is public, never throttled and its bytes are prebuilt, so it
 * skips Nest's router, guards and filters: that path costs about a third of the CPU per request
 * (`npm run bench`, card GET). Conditional requests follow RFC 9110 §13: `If-None-Match` (list,
 * `*`, weak form) wins over `If-Modified-Since`.
 * @see A2A specification §8.2 Agent Card discovery; RFC 9110 §8.8 validators, §13.1 preconditions.
 */
@Injectable()
export class AgentCardRoutes implements OnModuleInit {
  constructor(
    private readonly host: HttpAdapterHost,
    private readonly cards: AgentCardService,
    @Inject(cardConfig.KEY) private readonly config: ConfigType<typeof cardConfig>,
  ) {}

  onModuleInit(): void {
    // No HTTP adapter in a plain application context (`--export-agent-card`): nothing to serve.
    if (!this.host.httpAdapter) return;
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    for (const path of AGENT_CARD_PATHS) {
      fastify.get(path, (request, reply) => this.serve(request, reply));
    }
  }

  /** Serves the variant the request's A2A-Version selects; 304 when the client's copy is current. */
  serve(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const variant = this.cards.variantFor(requestedA2aVersion(request));
    const maxAge = this.config.cacheMaxAgeS;
    reply
      .headers(CORS_HEADERS)
      .header('cache-control', maxAge > 0 ? `public, max-age=${maxAge}` : 'no-cache')
      .header('etag', variant.etag)
      .header('last-modified', this.cards.lastModifiedHttp)
      .header('vary', 'A2A-Version');
    if (isNotModified(request, variant.etag, this.cards.lastModified))
      return reply.code(304).send();
    return reply.code(200).header('content-type', 'application/json').send(variant.body);
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
