import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { endIfStarted, renderJsonRpcError, renderRestError } from '../../common/errors/a2a-error-render';
import { replyMediaType } from './rest/rest-request';

/**
 * Global filter for what no controller filter saw: Fastify's body errors (413 over the body
 * limit), Nest's 404 for unknown routes, failures in guards of non-A2A routes. `POST /` answers
 * as JSON-RPC (envelope, `id: null`), everything else as REST (`google.rpc.Status`), so no
 * reply is ever Nest's or Fastify's own error shape.
 */
@Catch()
export class A2aFallbackExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (endIfStarted(reply)) return;
    if (request.method === 'POST' && request.url.split('?')[0] === '/') {
      const r = renderJsonRpcError(exception, false);
      reply.code(r.status).headers(r.headers ?? {}).send({ jsonrpc: '2.0', id: null, error: r.body });
      return;
    }
    const r = renderRestError(exception);
    reply
      .code(r.status)
      .headers(r.headers ?? {})
      .header('content-type', replyMediaType(request))
      .send(JSON.stringify(r.body));
  }
}
