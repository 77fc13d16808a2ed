import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConfigType } from '@nestjs/config';
import { cardConfig } from '../../config/namespaces';
import { requestedA2aVersion } from '../../common/http/a2a-version';
import { AGENT_CARD_PATHS } from './agent-card.constants';
import { AgentCardService } from './agent-card.service';
import type { CardVariant } from './agent-card.service';

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
    const r = this.cardReply(
      requestedA2aVersion(request),
      request.headers['if-none-match'],
      request.headers['if-modified-since'],
    );
    return reply.code(r.status).headers(r.headers).send(r.body);
  }

  /**
   * The reply to a card GET (HEAD: the same without its body), for the Fastify routes and the
   * card served before routing (`serveCardsBeforeRouting`). Its header objects are built once
   * per variant and must not be changed.
   * @param requestedVersion - `requestedA2aVersion` of the request.
   * @returns 200 with the variant's bytes, or 304 (no body) when the validators match.
   */
  cardReply(
    requestedVersion: string | undefined,
    ifNoneMatch: string | undefined,
    ifModifiedSince: string | undefined,
  ): CardReply {
    const variant = this.cards.variantFor(requestedVersion);
    let replies = this.replies.get(variant);
    if (replies === undefined) {
      replies = this.repliesOf(variant);
      this.replies.set(variant, replies);
    }
    const notModified = isNotModified(
      ifNoneMatch,
      ifModifiedSince,
      variant.etag,
      this.cards.lastModified,
    );
    return notModified ? replies.notModified : replies.ok;
  }

  private readonly replies = new WeakMap<CardVariant, { ok: CardReply; notModified: CardReply }>();

  private repliesOf(variant: CardVariant): { ok: CardReply; notModified: CardReply } {
    const maxAge = this.config.cacheMaxAgeS;
    const headers = {
      ...CORS_HEADERS,
      'cache-control': maxAge > 0 ? `public, max-age=${maxAge}` : 'no-cache',
      etag: variant.etag,
      'last-modified': this.cards.lastModifiedHttp,
      vary: 'A2A-Version',
    };
    return {
      ok: {
        status: 200,
        headers: {
          ...headers,
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(variant.body)),
        },
        body: variant.body,
      },
      notModified: { status: 304, headers, body: undefined },
    };
  }
}

/** A card reply: status, its headers (frozen per variant) and the body (none for 304). */
export interface CardReply {
  readonly status: 200 | 304;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

function isNotModified(
  inm: string | undefined,
  ims: string | undefined,
  etag: string,
  lastModified: Date,
): boolean {
  if (typeof inm === 'string') {
    return inm
      .split(',')
      .map((t) => t.trim().replace(/^W\//, ''))
      .some((t) => t === '*' || t === etag);
  }
  if (typeof ims !== 'string') return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && lastModified.getTime() <= since;
}
