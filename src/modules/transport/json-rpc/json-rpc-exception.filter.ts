import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { endIfStarted, renderJsonRpcError } from '../../../common/errors/a2a-error-render';
import { requestedA2aVersion } from '../../../common/http/a2a-version';
import { readableRequestId } from './json-rpc-envelope';

/** True when the request is served by the 0.3 handler: no version (or 0.3) and 0.3 is on. */
export function isLegacyRequest(version: string | undefined, legacyV03: boolean): boolean {
  return legacyV03 && (version === undefined || version === '0.3');
}

/**
 * Renders whatever escapes the JSON-RPC controller (guards' 401/403, the throttler's 429,
 * unexpected failures) as a JSON-RPC error envelope echoing the request id when the body is
 * readable (else `id: null`); HTTP status per
 * {@link renderJsonRpcError}. Uses the 0.3 error shape for header-less requests.
 */
@Catch()
export class JsonRpcExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    if (endIfStarted(reply)) return;
    const request = http.getRequest<FastifyRequest>();
    const version = requestedA2aVersion(request);
    const rendered = renderJsonRpcError(exception, version === undefined || version === '0.3');
    reply
      .code(rendered.status)
      .headers(rendered.headers ?? {})
      .send({ jsonrpc: '2.0', id: readableRequestId(request.body), error: rendered.body });
  }
}
