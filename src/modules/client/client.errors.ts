/** Why an {@link A2AClientError} was raised; stable strings, safe to match on. */
export enum A2AClientErrorCode {
  /** The agent URL is not an absolute http(s) URL. */
  InvalidUrl = 'INVALID_URL',
  /** No card at `/.well-known/agent-card.json` nor `/.well-known/agent.json` (404). */
  CardNotFound = 'CARD_NOT_FOUND',
  /** The card answered 401/403: it is protected and needs credentials to be read. */
  CardProtected = 'CARD_PROTECTED',
  /** The card is not a JSON object, or lacks what this client needs. */
  CardInvalid = 'CARD_INVALID',
  /** A response body exceeded the size bound. */
  ResponseTooLarge = 'RESPONSE_TOO_LARGE',
  /** No answer within the time bound. */
  Timeout = 'TIMEOUT',
  /** The host could not be reached (DNS, refused connection, TLS handshake). */
  Unreachable = 'UNREACHABLE',
  /** An HTTP status this client cannot use (5xx, unexpected 4xx). */
  HttpError = 'HTTP_ERROR',
  /** The card lists no interface this client speaks; the message lists every entry and why. */
  NoUsableInterface = 'NO_USABLE_INTERFACE',
  /** The credentials given do not fit what the card declares (e.g. Basic without `user:password`). */
  AuthConfig = 'AUTH_CONFIG',
  /** The operation is not available on the chosen interface or not advertised by the card. */
  Unsupported = 'UNSUPPORTED',
  /** An OAuth 2 / OIDC step failed (discovery, grant, refresh, revocation). */
  OAuth = 'OAUTH',
  /** Credentials may not go to this URL (other origin, plain HTTP, link-local/metadata address). */
  CredentialPolicy = 'CREDENTIAL_POLICY',
  /** The agent answered 429 Too Many Requests; `retryAfterSeconds` says when to try again. */
  RateLimited = 'RATE_LIMITED',
  /**
   * TLS setup or handshake: a certificate, key or CA file unreadable, a key that does not match
   * its certificate, or a named TLS refusal (certificate required, unknown CA, untrusted server).
   */
  TlsConfig = 'TLS_CONFIG',
}

/**
 * Failure of the A2A client before or around an SDK call. Errors raised by the SDK transports
 * for A2A error answers (TaskNotFound, TaskNotCancelable, ...) pass through unchanged.
 */
export class A2AClientError extends Error {
  override readonly name = 'A2AClientError';

  /**
   * @param code - Category, see {@link A2AClientErrorCode}.
   * @param message - One line for a person; never contains a secret.
   * @param options - `cause`: the underlying error; `status`: HTTP status when one was received.
   */
  constructor(
    readonly code: A2AClientErrorCode,
    message: string,
    options: { cause?: unknown; status?: number; retryAfterSeconds?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** Seconds to wait before retrying (from `Retry-After` of a 429), when known. */
  readonly retryAfterSeconds?: number;

  /** HTTP status of the answer that caused the error, when there was one. */
  readonly status?: number;
}
