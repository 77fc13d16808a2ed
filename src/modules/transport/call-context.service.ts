import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import {
  UnauthenticatedUser,
  defaultServerCallContextBuilder,
  validateVersion,
} from '@a2a-js/sdk/server';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { PrincipalUser } from '../../common/auth/principal';
import { AgentCardService } from '../agent-card/agent-card.service';

const LEGACY_EXTENSION_HEADER = 'x-a2a-extensions';

/**
 * Builds the SDK `ServerCallContext` for one HTTP request: caller (from `request.principal`),
 * requested version, extensions and raw headers; then checks the version against the card.
 * @see A2A specification §3.6.2 versioning; SDK `defaultServerCallContextBuilder`, `validateVersion`.
 */
@Injectable()
export class CallContextService {
  constructor(private readonly cards: AgentCardService) {}

  /**
   * @param version - Normalised requested version (undefined = header absent = 0.3).
   * @param binding - `JSONRPC` or `HTTP+JSON`.
   * @param legacy - The request is served by the 0.3 handler (reads `X-A2A-Extensions` first).
   * @throws {VersionNotSupportedError} The card lists no interface of that binding and version.
   */
  build(
    request: Pick<FastifyRequest, 'headers' | 'principal'>,
    version: string | undefined,
    binding: 'JSONRPC' | 'HTTP+JSON',
    legacy = false,
  ): ServerCallContext {
    const header = (name: string): string | undefined => {
      const v = request.headers[name];
      return Array.isArray(v) ? v.join(',') : v;
    };
    const extensions = legacy
      ? (header(LEGACY_EXTENSION_HEADER) ?? header(HTTP_EXTENSION_HEADER.toLowerCase()))
      : header(HTTP_EXTENSION_HEADER.toLowerCase());
    const context = defaultServerCallContextBuilder({
      extensions: Extensions.parseServiceParameter(extensions),
      user: request.principal ? new PrincipalUser(request.principal) : new UnauthenticatedUser(),
      headers: request.headers,
      requestedVersion: version,
    });
    validateVersion(context.requestedVersion, this.cards.card(), binding);
    return context;
  }
}
