import type { FastifyRequest } from 'fastify';

/** What the credential checks read of a request. */
type CredentialRequest = Pick<FastifyRequest, 'headers' | 'query'>;
import { invalidCredentialRequest, unauthorized } from '../../common/errors/http-rejections';

/** `Authorization: Bearer <b64token>`, one space, as passport-http-bearer splits it (RFC 6750 §2.1). */
const BEARER_HEADER = /^Bearer ([^ ]+)$/i;

/** True when the request carries any credential (an `Authorization` header or `access_token`). */
export function credentialPresented(request: CredentialRequest): boolean {
  return request.headers.authorization !== undefined || queryToken(request) !== undefined;
}

/**
 * The one bearer credential of a request, checked before any verification so that what reaches
 * the strategy is always a single non-empty string: undefined when none is presented.
 * The messages name what is wrong, never the credential.
 * @throws {A2aHttpException} 400 `invalid_request`: a credential in both the header and the query,
 *   or a repeated `access_token`; 401 `invalid_token`: a non-Bearer scheme, a malformed
 *   `Authorization` header, an empty `access_token`.
 * @see RFC 6750 §2.1 (header), §2.3 (URI query parameter), §3.1 (error codes).
 */
export function bearerCredential(request: CredentialRequest): string | undefined {
  const header = request.headers.authorization;
  const query = queryToken(request);
  if (Array.isArray(query)) {
    throw invalidCredentialRequest(
      'The access_token parameter is repeated: send one credential (RFC 6750 section 2).',
    );
  }
  if (header !== undefined && query !== undefined) {
    throw invalidCredentialRequest(
      'A credential in both the Authorization header and the access_token parameter: send it once (RFC 6750 section 2).',
    );
  }
  if (header !== undefined) {
    if (!/^Bearer(\s|$)/i.test(header))
      throw unauthorized('Unsupported Authorization scheme: use Bearer.', true);
    const match = BEARER_HEADER.exec(header);
    if (!match)
      throw unauthorized(
        'Malformed Authorization header: expected "Bearer <credential>" with one space.',
        true,
      );
    return match[1];
  }
  if (query === undefined) return undefined;
  if (typeof query !== 'string' || query === '')
    throw unauthorized('Empty access_token parameter.', true);
  return query;
}

function queryToken(request: CredentialRequest): unknown {
  return (request.query as Record<string, unknown> | undefined)?.access_token;
}
