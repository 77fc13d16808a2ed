import { constantTimeEquals } from '../../common/auth/constant-time';
import type { Env } from '../env.schema';
import { configNamespace } from './config-namespace';

/**
 * Credentials and the anonymous tier (namespace `access`). The operator token and the API-key
 * secret sit in private fields, so logging or serialising the settings never shows them.
 */
export class AccessSettings {
  readonly #operatorToken: string | undefined;
  readonly #keySecret: string | undefined;
  /** Serve callers without a credential (anonymous tier). */
  readonly allowAnonymous: boolean;
  /** Revoked API key ids (`kid`). */
  readonly revokedKeyIds: ReadonlySet<string>;

  constructor(env: Env) {
    this.#operatorToken = env.SUPERQODE_A2A_TOKEN || undefined;
    this.#keySecret = env.SUPERQODE_A2A_KEY_SECRET || undefined;
    this.allowAnonymous = env.SUPERQODE_A2A_ALLOW_ANONYMOUS;
    this.revokedKeyIds = new Set(env.SUPERQODE_A2A_REVOKED_KEYS);
  }

  /** An operator token is configured. */
  get operatorTokenConfigured(): boolean {
    return this.#operatorToken !== undefined;
  }

  /** An API-key signing secret is configured. */
  get keySecretConfigured(): boolean {
    return this.#keySecret !== undefined;
  }

  /** A credential can be presented (operator token or API keys): the card advertises bearer auth. */
  get credentialsConfigured(): boolean {
    return this.operatorTokenConfigured || this.keySecretConfigured;
  }

  /** Whether `candidate` is the operator token (constant-time; false when none is configured). */
  matchesOperatorToken(candidate: string): boolean {
    return this.#operatorToken !== undefined && constantTimeEquals(candidate, this.#operatorToken);
  }

  /** The HMAC secret that signs API keys, or undefined. For `ApiKeysService` only; never log it. */
  apiKeySecret(): string | undefined {
    return this.#keySecret;
  }

  /** The operator token and API-key secret when set, to scrub from tool output (never log). */
  secretValues(): readonly string[] {
    return [this.#operatorToken, this.#keySecret].filter((s): s is string => !!s);
  }

  /** What `JSON.stringify` shows: no secret. */
  toJSON(): Record<string, unknown> {
    return {
      allowAnonymous: this.allowAnonymous,
      operatorTokenConfigured: this.operatorTokenConfigured,
      keySecretConfigured: this.keySecretConfigured,
      revokedKeyCount: this.revokedKeyIds.size,
    };
  }
}

/** `access`: operator token, API-key secret and revocations, anonymous tier. */
export const accessConfig = configNamespace('access', (env) => new AccessSettings(env));

/** Rate limits (namespace `limits`; 0 = off for each). */
export interface LimitSettings {
  /** Requests per minute per anonymous caller. */
  readonly anonymousPerMinute: number;
  /** Requests per minute per keyed caller. */
  readonly keyedPerMinute: number;
  /** Requests per UTC day across all callers. */
  readonly globalPerDay: number;
  /** Share (0..1) of {@link globalPerDay} that anonymous callers together may use. */
  readonly anonymousShareOfDay: number;
  /** Failed authentications per client address per minute; past it, 429 before verifying. */
  readonly authFailuresPerMinute: number;
}

/** `limits`: the per-caller, per-day and failed-authentication ceilings. */
export const limitsConfig = configNamespace('limits', (env): LimitSettings => ({
  anonymousPerMinute: env.SUPERQODE_A2A_ANONYMOUS_PER_MINUTE,
  keyedPerMinute: env.SUPERQODE_A2A_KEYED_PER_MINUTE,
  globalPerDay: env.SUPERQODE_A2A_GLOBAL_PER_DAY,
  anonymousShareOfDay: env.SUPERQODE_A2A_ANONYMOUS_SHARE_OF_DAY,
  authFailuresPerMinute: env.SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE,
}));
