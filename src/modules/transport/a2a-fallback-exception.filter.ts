import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { endIfStarted } from '../../common/errors/a2a-error-render';
import { sendBindingError } from './http/binding-errors';

/**
 * Global filter for what no controller filter saw: Fastify's body errors (413 over the body
 * limit, 400 on a body shorter than its `Content-Length`), Nest's 404 for unknown routes,
 * failures in guards of non-A2A routes. `POST /` answers as JSON-RPC (envelope, `id: null`),
 * everything else as REST (`google.rpc.Status`), so no reply is ever Nest's or Fastify's own
 * error shape.
 */
@Catch()
export class A2aFallbackExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    if (endIfStarted(reply)) return;
    sendBindingError(http.getRequest<FastifyRequest>(), reply, exception);
  }
}
