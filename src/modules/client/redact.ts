import { redactUrl } from '../../common/http/redact-url';

/** Replacement text for a secret value. */
export const REDACTED = '[REDACTED]';

/** Header names whose values are always secret (lower case). */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|auth|token|secret|api[-_]?key|password|session/i;

const PATTERNS: [RegExp, string][] = [
  // Authorization credentials: keep the scheme word, drop the credential (not challenge params).
  [/\b(Bearer|Basic|Digest|DPoP)\s+(?![A-Za-z_-]+=")[A-Za-z0-9._~+/=:-]{6,}/gi, `$1 ${REDACTED}`],
  // SuperQode API keys.
  [/\bsqk_(live|test)_[A-Za-z0-9._~-]+/g, `sqk_$1_${REDACTED}`],
  // OpenAI-style keys.
  [/\bsk-[A-Za-z0-9_-]{8,}/g, `sk-${REDACTED}`],
  // Token-like query parameters anywhere in a text.
  [
    /([?&](?:access_token|id_token|refresh_token|token|api[_-]?key|apikey|key|secret|password|client_secret|code|device_code|sig|signature)=)[^&#\s"']*/gi,
    `$1${REDACTED}`,
  ],
  // Token-like JSON members (OAuth responses, request bodies).
  [
    /("(?:access_token|refresh_token|id_token|client_secret|device_code|password|registration_access_token)"\s*:\s*")[^"]*/g,
    `$1${REDACTED}`,
  ],
];

/**
 * Removes secrets from text before it is traced, printed or logged: every value registered with
 * {@link Redactor.addSecret}, Authorization credentials, `sqk_live_`/`sqk_test_` keys, `sk-` keys,
 * token-like query parameters and OAuth token members of JSON.
 * @see RFC 6750 §5.3 (bearer tokens must not leak into logs or URLs).
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  private readonly secretParams = new Set<string>();

  /**
   * Registers a literal secret (token, key, password, client secret). Values shorter than 4
   * characters are ignored: replacing them would mangle ordinary text.
   */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.add(value);
  }

  /** Registers a query parameter name whose value is secret (an API key named by the card). */
  addSecretParam(name: string): void {
    this.secretParams.add(name.toLowerCase());
  }

  /** Text with every known secret and secret-looking value replaced by `[REDACTED]`. */
  text(input: string): string {
    let out = input;
    for (const s of [...this.secrets].sort((a, b) => b.length - a.length))
      out = out.split(s).join(REDACTED);
    for (const name of this.secretParams) {
      out = out.replace(
        new RegExp(`([?&]${escapeRegExp(name)}=)[^&#\\s"']*`, 'gi'),
        `$1${REDACTED}`,
      );
    }
    for (const [re, to] of PATTERNS) out = out.replace(re, to);
    return out;
  }

  /** A URL safe to show: secret query values redacted (`?api_key=[REDACTED]`). */
  url(input: string): string {
    return this.text(redactUrl(input));
  }

  /**
   * Headers safe to show: values of credential headers (Authorization, Cookie, names containing
   * auth/token/key/secret/password/session) replaced, keeping the scheme word of Authorization.
   */
  headers(input: Iterable<[string, string]>): [string, string][] {
    return [...input].map(([name, value]) => [
      name,
      SECRET_HEADER.test(name) ? maskHeader(value) : this.text(value),
    ]);
  }
}

function maskHeader(value: string): string {
  const m = /^(Bearer|Basic|Digest|DPoP)\s+/i.exec(value);
  return m ? `${m[1]} ${REDACTED}` : REDACTED;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
