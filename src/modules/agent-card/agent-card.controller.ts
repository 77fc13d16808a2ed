import { Controller, Get, Header } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { Public } from '../../common/decorators/public.decorator';
import { packagePath } from '../../common/runtime/package-root';
import { ICON_PATH } from './agent-card.constants';

const ICON = readFileSync(packagePath('assets', 'icon.svg'));

/**
 * The icon the card's `iconUrl` points at (public). The card itself is served by
 * {@link AgentCardRoutes} as plain Fastify routes.
 */
@Public()
@Controller()
export class AgentCardController {
  /** `GET|HEAD /icon.svg`, SVG, cacheable for a day. */
  @Get(ICON_PATH.slice(1))
  @Header('content-type', 'image/svg+xml')
  @Header('cache-control', 'public, max-age=86400')
  icon(): Buffer {
    return ICON;
  }
}
