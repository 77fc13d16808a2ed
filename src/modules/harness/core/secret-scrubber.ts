/** What replaces a secret value in tool output, model text and everything recorded. */
export const REDACTED = '[redacted]';

/** Values shorter than this (characters) are not scrubbed: too likely to be ordinary text. */
export const MIN_SECRET_CHARS = 8;

/**
 * Environment variable names whose values count as secrets: `*TOKEN*`, `*SECRET*`, `*KEY*`,
 * `*PASSWORD*`, `*PASSWD*`, `*PASS`, `*_PWD` (not `PWD`/`OLDPWD`), `*CREDENTIAL*`, `*AUTH*`,
 * `*COOKIE*`, `*SESSION*`, `DATABASE_URL`, `*_DSN`. Any case.
 */
export const SECRET_VARIABLE_NAME =
  /TOKEN|SECRET|KEY|PASSWORD|PASSWD|PASS$|_PWD$|CREDENTIAL|AUTH|COOKIE|SESSION|^DATABASE_URL$|_DSN$/i;

/** A URL with a password in it (`scheme://user:password@host`): its value is a secret too. */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

/**
 * Secret values from environment variables: those whose name looks secret
 * ({@link SECRET_VARIABLE_NAME}) and any URL carrying a password, at least
 * {@link MIN_SECRET_CHARS} long (trimmed).
 * @param env - Usually `process.env`.
 */
export function secretValuesFromEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter(
      ([name, value]) =>
        value && (SECRET_VARIABLE_NAME.test(name) || URL_WITH_PASSWORD.test(value)),
    )
    .map(([, value]) => String(value).trim());
}

/**
 * Replaces every configured secret value with {@link REDACTED}. Built once at start from the
 * operator token, the API-key secret, provider keys and secret-looking environment variables;
 * applied where events are recorded (`RunRecorder`), so tool output and model text are
 * scrubbed before they are streamed, stored in the ledger or sent back to the model.
 */
export class SecretScrubber {
  private readonly secrets: readonly string[];
  private readonly pattern?: RegExp;

  /** @param values - Secret values; blanks, duplicates and short values are dropped. */
  constructor(values: Iterable<string | undefined>) {
    const unique = new Set<string>();
    for (const value of values) {
      const trimmed = value?.trim();
      if (trimmed && trimmed.length >= MIN_SECRET_CHARS) unique.add(trimmed);
    }
    // Longest first, so a secret containing another is replaced whole.
    this.secrets = [...unique].sort((a, b) => b.length - a.length);
    if (this.secrets.length > 0) {
      this.pattern = new RegExp(
        this.secrets.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
        'g',
      );
    }
  }

  /** A scrubber that changes nothing (tests, embedding without secrets). */
  static none(): SecretScrubber {
    return new SecretScrubber([]);
  }

  /** `text` with every secret value replaced. */
  scrub(text: string): string {
    return this.pattern ? text.replace(this.pattern, REDACTED) : text;
  }

  /**
   * A copy of `value` with every string in it scrubbed (object keys included), for event data.
   * @param value - JSON-like data: strings, numbers, booleans, null, arrays, plain objects.
   */
  scrubDeep<T>(value: T): T {
    if (!this.pattern) return value;
    return this.deep(value) as T;
  }

  /**
   * How many characters at the end of `text` could start a secret that the next chunk
   * completes; a stream holds them back (see `DeltaScrubber`).
   */
  pendingTail(text: string): number {
    let hold = 0;
    for (const secret of this.secrets) {
      for (let n = Math.min(secret.length - 1, text.length); n > hold; n--) {
        if (text.endsWith(secret.slice(0, n))) {
          hold = n;
          break;
        }
      }
    }
    return hold;
  }

  private deep(value: unknown): unknown {
    if (typeof value === 'string') return this.scrub(value);
    if (Array.isArray(value)) return value.map((item) => this.deep(item));
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [this.scrub(k), this.deep(v)]),
      );
    }
    return value;
  }
}

/**
 * Scrubs a text stream chunk by chunk: a secret split across chunks is still caught, because
 * a chunk's tail that could begin a secret is held back until the next chunk (or `flush`).
 */
export class DeltaScrubber {
  private pending = '';

  constructor(private readonly scrubber: SecretScrubber) {}

  /** The scrubbed text that can be released now (maybe `''`). */
  push(chunk: string): string {
    const text = this.scrubber.scrub(this.pending + chunk);
    const hold = this.scrubber.pendingTail(text);
    this.pending = text.slice(text.length - hold);
    return text.slice(0, text.length - hold);
  }

  /** What is still held back, scrubbed. */
  flush(): string {
    const rest = this.scrubber.scrub(this.pending);
    this.pending = '';
    return rest;
  }
}
