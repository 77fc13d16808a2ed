import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { ApiKeyClaims } from './api-key';

/*
 * Wire format of v1 API keys, `<prefix><base64url(JSON claims)>.<base64url(HMAC-SHA256)>`:
 * encoding, splitting and claim decoding. Internal to the auth module; callers use
 * `issueApiKey` / `verifyApiKey` from `./api-key`.
 * @see RFC 4648 §5 (base64url), RFC 2104 (HMAC).
 */

/** Longest key text looked at, chars (a v1 key is about 200). */
const MAX_KEY_CHARS = 2048;
/** HMAC-SHA256 digest size, bytes. */
const HMAC_BYTES = 32;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * v1 claims; unknown extra fields are dropped. `scopes` is optional (keys issued before scopes
 * existed have none); scope names this build does not know are kept and simply grant nothing.
 */
const claimsV1 = z.object({
  v: z.literal(1),
  kid: z.string().regex(/^[0-9a-f]{12}$/),
  cus: z.string().min(1),
  tier: z.string().min(1),
  iat: z.number().int().nonnegative(),
  exp: z.number().int().nonnegative(),
  scopes: z
    .array(z.string().regex(/^[a-z][a-z0-9:._-]{0,63}$/))
    .max(32)
    .optional(),
});

/** The parts of a structurally valid key after its prefix. */
export interface KeyParts {
  /** Claims text exactly as presented (base64url); the signature covers prefix + this. */
  readonly body: string;
  /** Decoded signature, always {@link HMAC_BYTES} bytes. */
  readonly signature: Buffer;
}

/**
 * HMAC-SHA256 of the signed text.
 * @param secret - Signing secret (UTF-8).
 * @param signed - Prefix + claims text, exactly as it precedes the dot.
 * @returns 32-byte digest.
 */
export function hmac(secret: string, signed: string): Buffer {
  return createHmac('sha256', secret).update(signed, 'utf8').digest();
}

/** Claims → base64url of their JSON (UTF-8). */
export function encodeClaims(claims: ApiKeyClaims): string {
  return Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
}

/**
 * Splits `<body>.<signature>` after a known prefix.
 * @returns The parts, or null when there is not exactly one dot, either side is not base64url,
 *   the key exceeds 2048 chars, or the signature is not the canonical encoding of 32 bytes.
 */
export function splitKey(key: string, prefix: string): KeyParts | null {
  if (key.length > MAX_KEY_CHARS) return null;
  const rest = key.slice(prefix.length);
  const dot = rest.indexOf('.');
  if (dot < 0 || dot !== rest.lastIndexOf('.')) return null;
  const body = rest.slice(0, dot);
  const sigText = rest.slice(dot + 1);
  if (!BASE64URL.test(body) || body.length % 4 === 1 || !BASE64URL.test(sigText)) return null;
  const signature = Buffer.from(sigText, 'base64url');
  // Canonical form only: otherwise the unused low bits of the last char give look-alike keys.
  if (signature.length !== HMAC_BYTES || signature.toString('base64url') !== sigText) return null;
  return { body, signature };
}

/**
 * Decodes signed claims; call only once the signature matched.
 * @returns v1 claims; `'version'` for a JSON object whose `v` is an integer other than 1;
 *   `'unreadable'` when the text is not a JSON object, `v` is not an integer, or a v1 field is
 *   missing or mistyped.
 */
export function decodeClaims(body: string): ApiKeyClaims | 'unreadable' | 'version' {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return 'unreadable';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'unreadable';
  const v: unknown = (parsed as { v?: unknown }).v;
  if (typeof v !== 'number' || !Number.isInteger(v)) return 'unreadable';
  if (v !== 1) return 'version';
  const r = claimsV1.safeParse(parsed);
  return r.success ? r.data : 'unreadable';
}
