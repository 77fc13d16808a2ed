import { isIP } from 'node:net';

/** Where credentials (token, API key, Basic, OAuth tokens, `--header` values) may go. */
export interface CredentialPolicy {
  /** Origin of the URL the user gave (a redirect of the card fetch does not move it). */
  cardOrigin: string;
  /** Further origins the user trusts (`--trust-origin`). */
  trustOrigins: readonly string[];
  /** Plain HTTP to a non-loopback host is allowed (`--allow-insecure`). */
  allowInsecure: boolean;
}

/** Cloud metadata endpoints reached by name. */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog']);

/** Host of a URL without IPv6 brackets, lower case. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** IPv4 dotted quad of a v4 or v4-mapped v6 literal, else undefined. */
function ipv4Of(host: string): number[] | undefined {
  if (isIP(host) === 4) return host.split('.').map(Number);
  // WHATWG URL serialises ::ffff:169.254.1.1 as ::ffff:a9fe:101.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return undefined;
  const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255];
}

/** True for loopback hosts: `localhost`, `*.localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackHost(url: URL): boolean {
  const h = hostOf(url);
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  return ipv4Of(h)?.[0] === 127;
}

/**
 * Why `url` must never receive credentials, if it must not: link-local (169.254.0.0/16,
 * fe80::/10), unspecified (0.0.0.0/8, `::`) and cloud metadata addresses (169.254.169.254,
 * 100.100.100.200, fd00:ec2::254, `metadata.google.internal`). Literal addresses and these names
 * only: a name that resolves to such an address is not detected.
 */
function forbiddenAddress(url: URL): string | undefined {
  const h = hostOf(url);
  const v4 = ipv4Of(h);
  if (METADATA_NAMES.has(h) || h === '100.100.100.200' || h === 'fd00:ec2::254')
    return 'a cloud metadata address';
  if (v4?.[0] === 169 && v4[1] === 254) return 'a link-local address (cloud metadata lives there)';
  if (v4?.[0] === 0 || h === '::') return 'an unspecified address';
  if (isIP(h) === 6 && /^fe[89ab][0-9a-f]:/.test(h)) return 'a link-local address';
  return undefined;
}

/**
 * The one-line reason credentials may not be sent to `url`, or undefined when they may: never to
 * link-local, metadata or unspecified addresses; never over plain HTTP to a non-loopback host
 * unless `allowInsecure`; only to the card's origin and the trusted origins.
 * @see RFC 6750 §5.3 (do not send bearer tokens to untrusted parties, use TLS);
 *   RFC 6454 (origins).
 */
export function credentialRefusal(url: URL, p: CredentialPolicy): string | undefined {
  const forbidden = forbiddenAddress(url);
  if (forbidden) return `refusing to send credentials to ${url.origin}: ${forbidden}`;
  if (url.protocol === 'http:' && !isLoopbackHost(url) && !p.allowInsecure)
    return `refusing to send credentials to ${url.origin} over plain HTTP (use https, or --allow-insecure)`;
  if (url.origin !== p.cardOrigin && !p.trustOrigins.includes(url.origin))
    return `refusing to send credentials to ${url.origin}: not the card's origin (${p.cardOrigin}); pass --trust-origin ${url.origin} if you trust it`;
  return undefined;
}

/**
 * Normalises a `--trust-origin` value to its origin (`https://api.example:8443`).
 * @returns undefined when it is not an http(s) origin (a path, query or credentials are refused).
 */
export function parseOrigin(value: string): string | undefined {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== ''))
    return undefined;
  return u.origin;
}
