import { ContentTypeNotSupportedError } from '@a2a-js/sdk/errors';

/**
 * A message part or output mode the routed skill does not take (not the request's
 * `Content-Type`): JSON-RPC -32005; HTTP+JSON 400 `INVALID_ARGUMENT` (A2A §5.4), where a refused
 * request `Content-Type` answers 415 (RFC 9110 §15.5.16).
 */
export class PartContentTypeNotSupportedError extends ContentTypeNotSupportedError {
  constructor(message: string) {
    super(message);
    // The SDK's mappers key on `name` (JSON-RPC code, REST reason): keep the semantic error's.
    this.name = 'ContentTypeNotSupportedError';
  }
}
