import type { CardScheme } from '../security-schemes';

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

/**
 * Scopes the card's security requirements name, per scheme: v1.0
 * `securityRequirements: [{ schemes: { name: { list: [scopes] } } }]`, v0.3
 * `security: [{ name: [scopes] }]`. A scheme named in several alternatives gets the scopes of the
 * first one (the one this client tries to satisfy).
 * @see A2A specification §5.5.3 (SecurityRequirement); OpenAPI 3.1 Security Requirement Object.
 */
export function requiredScopes(card: Json): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const v1 = Array.isArray(card.securityRequirements) ? card.securityRequirements : [];
  for (const r of v1)
    for (const [name, req] of Object.entries(obj(obj(r)?.schemes) ?? {}))
      out[name] ??= strings(obj(req)?.list);
  if (v1.length) return out;
  const v03 = Array.isArray(card.security) ? card.security : [];
  for (const r of v03)
    for (const [name, list] of Object.entries(obj(r) ?? {})) out[name] ??= strings(list);
  return out;
}

/**
 * Scopes to request for a scheme: those the card's requirements name for it (never every scope a
 * flow lists), plus `openid` for OpenID Connect (OIDC Core §3.1.2.1).
 */
export function scopesToRequest(s: CardScheme, required: Record<string, string[]> = {}): string[] {
  const named = required[s.name] ?? [];
  return [...new Set(s.kind === 'openIdConnect' ? ['openid', ...named] : named)];
}
