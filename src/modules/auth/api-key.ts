import { randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeClaims, encodeClaims, hmac, splitKey } from './api-key-format';
import { LIVE_KEY_PREFIX, TEST_KEY_PREFIX } from './api-key-prefixes';

export { LIVE_KEY_PREFIX, TEST_KEY_PREFIX };

/** Claims version this build issues and accepts. */
export const API_KEY_VERSION = 1;
/** Tier given to a key when none is asked for. */
export const API_KEY_DEFAULT_TIER = 'standard';
/** Validity of a key when none is asked for, days. */
export const API_KEY_DEFAULT_DAYS = 30;
/** Longest validity a key can be issued with, days (about ten years). */
export const API_KEY_MAX_DAYS = 3650;
/** Shortest signing secret accepted, characters (same floor as SUPERQODE_A2A_KEY_SECRET). */
export const API_KEY_MIN_SECRET_CHARS = 32;

/** Scopes a key can be issued with; `harness` lets it run the superqode-harness skill (issue #12). */
export const API_KEY_SCOPES = ['harness'] as const;
/** One of {@link API_KEY_SCOPES}. */
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

const SECONDS_PER_DAY = 86_400;
const TIER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;
const LABEL = /^[^\p{Cc}]{1,128}$/u;

/**
 * Signed claims carried in a key (base64url JSON between the prefix and the dot).
 * Nothing is stored server-side: the signature is the only proof these were issued.
 */
export interface ApiKeyClaims {
  /** Claims format version; always {@link API_KEY_VERSION}. */
  readonly v: 1;
  /** Key id: 12 lowercase hex chars (48 random bits); what revocation lists name. */
  readonly kid: string;
  /** Customer label given at issue (1-128 chars, no control characters). */
  readonly cus: string;
  /** Tier label (e.g. `standard`); policy is the caller's concern. */
  readonly tier: string;
  /** Issued at, Unix seconds. */
  readonly iat: number;
  /** Expires at, Unix seconds; the key is refused from this second on. */
  readonly exp: number;
  /** Scopes granted (e.g. `harness`); absent on keys issued without any (and on older keys). */
  readonly scopes?: readonly string[];
}

/** Why a key was refused (stable string codes, one per case). */
export enum ApiKeyRejection {
  /** No key presented (undefined or empty). */
  Missing = 'missing',
  /** Not a `sqk_live_` / `sqk_test_` key. */
  UnrecognisedFormat = 'unrecognised_format',
  /** Right prefix, but no single dot, bad base64url or a signature of the wrong size. */
  Malformed = 'malformed',
  /** The server has no signing secret, so it accepts no key. */
  NoSecret = 'no_secret',
  /** The HMAC does not match (tampered, wrong secret, or prefix changed). */
  BadSignature = 'bad_signature',
  /** Correctly signed, but `v` is not a version this build understands. */
  UnsupportedVersion = 'unsupported_version',
  /** Correctly signed, but the claims are not JSON or miss/mistype a field. */
  UnreadableClaims = 'unreadable_claims',
  /** The key id is listed in SUPERQODE_A2A_REVOKED_KEYS. */
  Revoked = 'revoked',
  /** The current time is at or past `exp`. */
  Expired = 'expired',
}

/**
 * Human message per rejection. Static text on purpose: it never echoes the key or its claims,
 * so it is safe to return to a caller.
 */
export const API_KEY_REJECTION_MESSAGES: Readonly<Record<ApiKeyRejection, string>> = {
  [ApiKeyRejection.Missing]: 'no API key was presented',
  [ApiKeyRejection.UnrecognisedFormat]:
    'unrecognised API key format (expected a sqk_live_ or sqk_test_ key)',
  [ApiKeyRejection.Malformed]: 'malformed API key',
  [ApiKeyRejection.NoSecret]:
    'API keys are not accepted: the server has no signing secret configured',
  [ApiKeyRejection.BadSignature]: 'API key signature does not match',
  [ApiKeyRejection.UnsupportedVersion]: 'unsupported API key version',
  [ApiKeyRejection.UnreadableClaims]: 'API key claims are unreadable',
  [ApiKeyRejection.Revoked]: 'API key has been revoked',
  [ApiKeyRejection.Expired]: 'API key has expired',
};

/** A key that passed every check. */
export interface ApiKeyAccepted {
  readonly ok: true;
  /** The verified claims. */
  readonly claims: ApiKeyClaims;
  /** True for a `sqk_live_` key, false for `sqk_test_`. */
  readonly live: boolean;
}

/** A refused key: the first failed check, as a code and its message. */
export interface ApiKeyRejected {
  readonly ok: false;
  /** Which check failed. */
  readonly code: ApiKeyRejection;
  /** {@link API_KEY_REJECTION_MESSAGES} for `code`. */
  readonly message: string;
}

/** Outcome of {@link verifyApiKey}; narrow on `ok`. */
export type ApiKeyVerification = ApiKeyAccepted | ApiKeyRejected;

/** What to put in a new key. */
export interface IssueApiKeyOptions {
  /** Customer label (`cus`): 1-128 chars, no control characters. */
  label: string;
  /** Tier label: 1-32 of `A-Za-z0-9._-`, starting alphanumeric; default `standard`. */
  tier?: string;
  /** Validity, whole days 1-3650; default 30. */
  days?: number;
  /** Issue a `sqk_test_` key instead of `sqk_live_`. */
  test?: boolean;
  /** Scopes to grant, each one of {@link API_KEY_SCOPES}; duplicates are dropped. Default none. */
  scopes?: readonly string[];
}

/** A freshly issued key: shown once, never stored. */
export interface IssuedApiKey {
  /** The full key text (`sqk_live_<claims>.<signature>`). */
  readonly key: string;
  /** The claims signed into it. */
  readonly claims: ApiKeyClaims;
}

/** Codes of {@link ApiKeyError}. */
export enum ApiKeyErrorCode {
  /** Issuing needs SUPERQODE_A2A_KEY_SECRET and it is not set. */
  NoSecret = 'no_secret',
  /** A label, tier, days value or secret outside its documented range. */
  InvalidOptions = 'invalid_options',
}

/** Issuing failed; the message names what to fix and never contains the secret. */
export class ApiKeyError extends Error {
  constructor(
    readonly code: ApiKeyErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiKeyError';
  }
}

/** True when `tier` is an acceptable tier label (see {@link IssueApiKeyOptions.tier}). */
export function isValidTier(tier: string): boolean {
  return TIER.test(tier);
}

/** True when `scope` is one of {@link API_KEY_SCOPES}. */
export function isKnownScope(scope: string): scope is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(scope);
}

/** A new signing secret: 48 random bytes as base64url (64 chars, 384 bits). */
export function generateKeySecret(): string {
  return randomBytes(48).toString('base64url');
}

/**
 * Issues a signed key.
 * @param secret - HMAC-SHA256 key, at least 32 chars (SUPERQODE_A2A_KEY_SECRET).
 * @param opts - Label, tier (default `standard`), days (default 30), test prefix, scopes.
 * @param now - Issue time; `iat` is its Unix second, `exp` = `iat` + days × 86 400.
 * @returns The key text and its claims; `kid` is 6 random bytes as hex.
 * @throws {ApiKeyError} `invalid_options`: short secret, bad label or tier, days not 1-3650, or a
 *   scope not in {@link API_KEY_SCOPES}.
 * @see RFC 2104 (HMAC), RFC 4648 §5 (base64url).
 */
export function issueApiKey(secret: string, opts: IssueApiKeyOptions, now: Date): IssuedApiKey {
  const tier = opts.tier ?? API_KEY_DEFAULT_TIER;
  const days = opts.days ?? API_KEY_DEFAULT_DAYS;
  const invalid = (msg: string): ApiKeyError =>
    new ApiKeyError(ApiKeyErrorCode.InvalidOptions, msg);
  if (secret.length < API_KEY_MIN_SECRET_CHARS) {
    throw invalid(`signing secret must be at least ${API_KEY_MIN_SECRET_CHARS} characters`);
  }
  if (!LABEL.test(opts.label) || opts.label.trim() === '') {
    throw invalid('customer label must be 1-128 characters without control characters');
  }
  if (!isValidTier(tier)) {
    throw invalid('tier must be 1-32 of A-Z a-z 0-9 . _ - starting with a letter or digit');
  }
  if (!Number.isInteger(days) || days < 1 || days > API_KEY_MAX_DAYS) {
    throw invalid(`days must be a whole number from 1 to ${API_KEY_MAX_DAYS}`);
  }
  const unknown = (opts.scopes ?? []).find((scope) => !isKnownScope(scope));
  if (unknown !== undefined) {
    throw invalid(`unknown scope '${unknown}' (known: ${API_KEY_SCOPES.join(', ')})`);
  }
  const scopes = [...new Set(opts.scopes ?? [])];
  const iat = Math.floor(now.getTime() / 1000);
  const claims: ApiKeyClaims = {
    v: API_KEY_VERSION,
    kid: randomBytes(6).toString('hex'),
    cus: opts.label,
    tier,
    iat,
    exp: iat + days * SECONDS_PER_DAY,
    ...(scopes.length > 0 ? { scopes } : {}),
  };
  const signed = (opts.test ? TEST_KEY_PREFIX : LIVE_KEY_PREFIX) + encodeClaims(claims);
  return { key: `${signed}.${hmac(secret, signed).toString('base64url')}`, claims };
}

/**
 * Verifies a key without any lookup. Checks run in this order, and the first failure wins:
 * format → structure → secret configured → signature → claims readable → version → revoked →
 * expired, so nothing about the claims of an unsigned key is revealed.
 * @param key - Key text as presented (not trimmed).
 * @param secret - Signing secret; undefined/empty rejects every well-formed key (`no_secret`).
 * @param revoked - Revoked key ids (`kid`).
 * @param now - Current time; the key is expired when its Unix second is ≥ `exp`.
 * @returns Claims and live/test, or a {@link ApiKeyRejection} with its message. Never throws.
 * @see RFC 2104 (HMAC); digests are compared with `crypto.timingSafeEqual`.
 */
export function verifyApiKey(
  key: string | undefined,
  secret: string | undefined,
  revoked: ReadonlySet<string>,
  now: Date,
): ApiKeyVerification {
  if (!key) return reject(ApiKeyRejection.Missing);
  const prefix = [LIVE_KEY_PREFIX, TEST_KEY_PREFIX].find((p) => key.startsWith(p));
  if (!prefix) return reject(ApiKeyRejection.UnrecognisedFormat);
  const parts = splitKey(key, prefix);
  if (!parts) return reject(ApiKeyRejection.Malformed);
  if (!secret) return reject(ApiKeyRejection.NoSecret);
  if (!timingSafeEqual(hmac(secret, prefix + parts.body), parts.signature)) {
    return reject(ApiKeyRejection.BadSignature);
  }
  const decoded = decodeClaims(parts.body);
  if (decoded === 'unreadable') return reject(ApiKeyRejection.UnreadableClaims);
  if (decoded === 'version') return reject(ApiKeyRejection.UnsupportedVersion);
  if (revoked.has(decoded.kid)) return reject(ApiKeyRejection.Revoked);
  if (Math.floor(now.getTime() / 1000) >= decoded.exp) return reject(ApiKeyRejection.Expired);
  return { ok: true, claims: decoded, live: prefix === LIVE_KEY_PREFIX };
}

function reject(code: ApiKeyRejection): ApiKeyRejected {
  return { ok: false, code, message: API_KEY_REJECTION_MESSAGES[code] };
}
