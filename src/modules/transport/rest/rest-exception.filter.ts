import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { endIfStarted, renderRestError } from '../../../common/errors/a2a-error-render';
import { replyMediaType } from './rest-request';

/**
 * Renders every error that escapes the REST controller as a `google.rpc.Status` body
 * (`{"error": {code, status, message, details}}`) with the status from {@link renderRestError},
 * in the request's media type.
 * @see A2A specification §11.6 error handling.
 */
@Catch()
export class RestExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    if (endIfStarted(reply)) return;
    const rendered = renderRestError(exception);
    reply
      .code(rendered.status)
      .headers(rendered.headers ?? {})
      .header('content-type', replyMediaType(http.getRequest<FastifyRequest>()))
      .send(JSON.stringify(rendered.body));
  }
}
