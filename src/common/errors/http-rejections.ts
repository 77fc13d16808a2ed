import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * A transport-level rejection (401/403/429) that keeps its HTTP meaning on every binding and
 * carries response headers (`WWW-Authenticate`, `Retry-After`). Rendered by the binding filters.
 */
export class A2aHttpException extends HttpException {
  constructor(
    status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }
}

/**
 * 401 for a presented credential that fails verification, or a missing one where anonymous
 * access is off. `WWW-Authenticate` per RFC 6750 §3: `error="invalid_token"` with the reason when
 * a token was presented; only the realm when none was.
 */
export function unauthorized(reason: string, tokenPresented: boolean): A2aHttpException {
  const safe = reason.replace(/["\\\r\n]/g, "'");
  const challenge = tokenPresented
    ? `Bearer realm="superqode-a2a", error="invalid_token", error_description="${safe}"`
    : 'Bearer realm="superqode-a2a"';
  return new A2aHttpException(HttpStatus.UNAUTHORIZED, reason, { 'WWW-Authenticate': challenge });
}

/** 429 naming the limit; `Retry-After` in whole seconds, at least 1 (RFC 9110 §10.2.3). */
export function tooManyRequests(message: string, retryAfterS: number): A2aHttpException {
  const seconds = Math.max(1, Math.ceil(retryAfterS));
  return new A2aHttpException(HttpStatus.TOO_MANY_REQUESTS, message, { 'Retry-After': String(seconds) });
}
