import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../common/decorators/public.decorator';
import { serverConfig } from '../../config/namespaces';
import { PACKAGE_VERSION } from '../health/package-version';

const DOCS = 'README.md and docs/ of the superqode-a2a package';

/** `GET /` body: where a person or a client goes next. */
export interface RootIndex {
  name: string;
  version: string;
  agentCard: string;
  health: string;
  metrics: string;
  docs: string;
}

/**
 * `GET /`: a small JSON index (HTML when a browser asks for `text/html`) pointing to the Agent
 * Card, `/health`, `/metrics` and the docs. Public and never throttled, like discovery; `POST /`
 * stays the JSON-RPC binding.
 */
@Public()
@Controller()
export class RootController {
  constructor(@Inject(serverConfig.KEY) private readonly config: ConfigType<typeof serverConfig>) {}

  @Get()
  index(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const base = this.config.publicUrl;
    const index: RootIndex = {
      name: 'SuperQode A2A agent',
      version: PACKAGE_VERSION,
      agentCard: `${base}/.well-known/agent-card.json`,
      health: `${base}/health`,
      metrics: `${base}/metrics`,
      docs: DOCS,
    };
    void reply.header('vary', 'Accept');
    if (!(request.headers.accept ?? '').includes('text/html')) {
      void reply.send(index);
      return;
    }
    const links = Object.entries(index)
      .filter(([, v]) => v.startsWith('http'))
      .map(([k, v]) => `<li>${k}: <a href="${escapeHtml(v)}">${escapeHtml(v)}</a></li>`)
      .join('');
    void reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><title>${index.name}</title><h1>${index.name} ${index.version}</h1><ul>${links}</ul>`,
      );
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
