import { isIP } from 'node:net';
import { connect, type ConnectionOptions } from 'node:tls';
import { A2AClientError, A2AClientErrorCode } from './client.errors';

/** PEM contents the fetch presents and trusts (see `baseFetchFor`). */
export interface TlsMaterial {
  cert?: Buffer;
  key?: Buffer;
  ca?: Buffer;
}

/** Probe outcome when the server ends the connection after the handshake without an alert (Node servers). */
const CLOSED_AFTER_HANDSHAKE = 'CLOSED_AFTER_HANDSHAKE';

/** How long the probe waits for the server's verdict on the client certificate, ms. */
const PROBE_MS = 3_000;

/** Server certificate checks that fail on this side (OpenSSL verify codes, Node's altname check). */
const SERVER_CERT_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * A sentence naming a TLS failure from its Node/OpenSSL code, or undefined for non-TLS codes.
 * Alerts follow RFC 8446 §6.2 (`certificate_required`, `unknown_ca`, `bad_certificate`, …).
 */
export function describeTlsFailure(code: string, clientCert: boolean): string | undefined {
  if (code === CLOSED_AFTER_HANDSHAKE)
    return clientCert
      ? 'the server closed the connection right after the TLS handshake: it most likely refused the client certificate (is it issued by a CA the server trusts?)'
      : 'the server closed the connection right after the TLS handshake: it may require a client certificate (--tls-cert and --tls-key)';
  if (SERVER_CERT_CODES.has(code))
    return `the server's certificate is not trusted (${code}): pass its CA with --tls-ca`;
  const alert = /^ERR_SSL_(?:TLSV13|TLSV1|SSLV3)_ALERT_(\w+)$/.exec(code)?.[1]?.toLowerCase();
  if (!alert) return undefined;
  if (alert === 'certificate_required' || (alert === 'handshake_failure' && !clientCert))
    return clientCert
      ? `the server requires a client certificate and did not get one it accepts (TLS alert ${alert})`
      : `the server requires a client certificate (TLS alert ${alert}): pass --tls-cert and --tls-key`;
  if (alert === 'unknown_ca')
    return 'the server does not trust the CA that issued the client certificate (TLS alert unknown_ca)';
  if (alert === 'certificate_expired')
    return 'the server refused the client certificate as expired (TLS alert certificate_expired)';
  return `the server refused the TLS connection (TLS alert ${alert})`;
}

/**
 * Repeats the TLS handshake with the same material and waits for the server's verdict: under
 * TLS 1.3 a refused client certificate arrives as an alert after the handshake, which fetch
 * reports only as a closed socket. Resolves with the Node/OpenSSL error code, `CLOSED_AFTER_HANDSHAKE`
 * when the server hung up without an alert, or undefined when the server accepted (a session
 * ticket or data arrived) or said nothing in time.
 */
export function probeTls(url: URL, m: TlsMaterial): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const options: ConnectionOptions = {
    host,
    port: Number(url.port || 443),
    servername: isIP(host) ? undefined : host,
    cert: m.cert,
    key: m.key,
    ca: m.ca,
  };
  return new Promise((resolve) => {
    const socket = connect(options);
    const done = (code?: string): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(code);
    };
    let handshake = false;
    const timer = setTimeout(() => done(), PROBE_MS);
    socket.on('secureConnect', () => (handshake = true));
    socket.on('error', (err: NodeJS.ErrnoException) => done(err.code));
    socket.on('session', () => done());
    socket.on('data', () => done());
    socket.on('end', () => done(handshake ? CLOSED_AFTER_HANDSHAKE : undefined));
    socket.on('close', () => done(handshake ? CLOSED_AFTER_HANDSHAKE : undefined));
  });
}

/**
 * The named TLS failure behind a failed fetch to an `https:` URL, as an {@link A2AClientError}
 * (`TLS_CONFIG`), or undefined when it was not a TLS failure. A socket closed right after the
 * handshake is probed again (see {@link probeTls}) to learn the alert.
 */
export async function tlsFailure(
  err: unknown,
  url: URL,
  m: TlsMaterial,
): Promise<A2AClientError | undefined> {
  if (url.protocol !== 'https:') return undefined;
  const cause = (err as { cause?: { code?: string } })?.cause;
  let code = cause?.code;
  if (!code || code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') code = await probeTls(url, m);
  const why = code ? describeTlsFailure(code, Boolean(m.cert)) : undefined;
  return why
    ? new A2AClientError(A2AClientErrorCode.TlsConfig, `TLS with ${url.host}: ${why}`, {
        cause: err,
      })
    : undefined;
}
