import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * A transport-level rejection (400/401/403/429) that keeps its HTTP meaning on every binding and
 * carries response headers (`WWW-Authenticate`, `Retry-After`). Rendered by the binding filters.
 * Header values are ASCII-safe by construction (see {@link headerSafe}).
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

/** Longest `error_description` we put in a header, characters. */
export const MAX_ERROR_DESCRIPTION_CHARS = 200;

/**
 * Text fit for a quoted header parameter: RFC 6750 §3 `error_description` allows only
 * %x20-21 / %x23-5B / %x5D-7E, so quotes and backslashes become `'`, any other character
 * (non-ASCII such as `…`, controls) becomes `?`, and the result is cut to `maxChars`.
 * Fastify/Node refuse other header bytes with a 500 (or leave the reply hanging).
 */
export function headerSafe(text: string, maxChars = MAX_ERROR_DESCRIPTION_CHARS): string {
  return text
    .replace(/["\\]/g, "'")
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, maxChars);
}

function bearerChallenge(error: 'invalid_token' | 'invalid_request', reason: string): string {
  return `Bearer realm="superqode-a2a", error="${error}", error_description="${headerSafe(reason)}"`;
}

/**
 * 401 for a presented credential that fails verification, or a missing one where anonymous
 * access is off. `WWW-Authenticate` per RFC 6750 §3: `error="invalid_token"` with the reason when
 * a token was presented; only the realm when none was. The reason must never contain the credential.
 */
export function unauthorized(reason: string, tokenPresented: boolean): A2aHttpException {
  const challenge = tokenPresented
    ? bearerChallenge('invalid_token', reason)
    : 'Bearer realm="superqode-a2a"';
  return new A2aHttpException(HttpStatus.UNAUTHORIZED, reason, { 'WWW-Authenticate': challenge });
}

/**
 * 400 for a credential sent in a malformed request: in more than one place, or a repeated
 * `access_token` parameter (RFC 6750 §2: "Clients MUST NOT use more than one method"; §3.1
 * `invalid_request`). Rendered as 400 / -32600 (JSON-RPC) or 400 `INVALID_ARGUMENT` (REST).
 */
export function invalidCredentialRequest(reason: string): A2aHttpException {
  return new A2aHttpException(HttpStatus.BAD_REQUEST, reason, {
    'WWW-Authenticate': bearerChallenge('invalid_request', reason),
  });
}

/** 429 naming the limit; `Retry-After` in whole seconds, at least 1 (RFC 9110 §10.2.3). */
export function tooManyRequests(message: string, retryAfterS: number): A2aHttpException {
  const seconds = Math.max(1, Math.ceil(retryAfterS));
  return new A2aHttpException(HttpStatus.TOO_MANY_REQUESTS, message, {
    'Retry-After': String(seconds),
  });
}
