import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { A2AClientError, A2AClientErrorCode } from './client.errors';
import { tlsFailure, type TlsMaterial } from './tls-diagnose';

/** PEM files for mutual TLS and for trusting a private CA. */
export interface TlsFiles {
  /** Client certificate chain (PEM). Needs `key`. */
  cert?: string;
  /** Private key of the client certificate (PEM, unencrypted). */
  key?: string;
  /** CA bundle (PEM) trusted for the server certificate, in addition to nothing else. */
  ca?: string;
}

/** A fetch, and how to release what it holds (sockets of a TLS dispatcher). */
export interface BaseFetch {
  fetch: typeof fetch;
  /** True when a client certificate is configured. */
  clientCertificate: boolean;
  close(): Promise<void>;
}

/** Minimal view of undici's Agent, to avoid a type dependency on a transitive package. */
interface DispatcherLike {
  close(): Promise<void>;
}
interface UndiciModule {
  Agent: new (opts: { connect: { cert?: Buffer; key?: Buffer; ca?: Buffer } }) => DispatcherLike;
}

function readPem(path: string | undefined, what: string): Buffer | undefined {
  if (!path) return undefined;
  try {
    return readFileSync(path);
  } catch (err) {
    throw new A2AClientError(
      A2AClientErrorCode.TlsConfig,
      `cannot read the TLS ${what} file ${path}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
}

/** Loads undici (bundled with Node's fetch, installed as a dependency of the AI SDK). */
function loadUndici(): UndiciModule {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('undici') as UndiciModule;
  } catch (err) {
    throw new A2AClientError(
      A2AClientErrorCode.TlsConfig,
      'mutual TLS needs the undici package (require("undici") failed); install undici@6',
      { cause: err },
    );
  }
}

/**
 * The fetch every request goes through: the global fetch, or, with TLS files, the global fetch
 * bound to an undici `Agent` whose connections present the client certificate and trust `ca`.
 * @throws {A2AClientError} `TLS_CONFIG`: a file is unreadable, `cert` without `key` (or the
 *   reverse), or undici cannot be loaded.
 * @see RFC 8705 §2 (mutual TLS client authentication).
 */
export function baseFetchFor(tls: TlsFiles = {}): BaseFetch {
  if (!tls.cert && !tls.key && !tls.ca) {
    return {
      fetch: namingTlsFailures(globalThis.fetch, {}),
      clientCertificate: false,
      close: async () => undefined,
    };
  }
  if (Boolean(tls.cert) !== Boolean(tls.key)) {
    throw new A2AClientError(
      A2AClientErrorCode.TlsConfig,
      'a client certificate needs both --tls-cert and --tls-key',
    );
  }
  const connect = {
    cert: readPem(tls.cert, 'certificate'),
    key: readPem(tls.key, 'key'),
    ca: readPem(tls.ca, 'CA'),
  };
  checkKeyPair(connect.cert, connect.key, tls);
  const dispatcher = new (loadUndici().Agent)({ connect });
  const bound = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> =>
    globalThis.fetch(input, { ...init, dispatcher } as RequestInit);
  return {
    fetch: namingTlsFailures(bound as typeof fetch, connect),
    clientCertificate: Boolean(tls.cert),
    close: () => dispatcher.close(),
  };
}

/**
 * Refuses a client certificate whose public key does not match the private key, before any
 * connection (OpenSSL would fail every handshake with `key values mismatch`).
 * @throws {A2AClientError} `TLS_CONFIG`.
 */
function checkKeyPair(cert: Buffer | undefined, key: Buffer | undefined, tls: TlsFiles): void {
  if (!cert || !key) return;
  let matches: boolean;
  try {
    matches = new X509Certificate(cert).checkPrivateKey(createPrivateKey(key));
  } catch (err) {
    throw new A2AClientError(
      A2AClientErrorCode.TlsConfig,
      `cannot parse the client certificate ${tls.cert} or key ${tls.key}: ${(err as Error).message}`,
      { cause: err },
    );
  }
  if (!matches)
    throw new A2AClientError(
      A2AClientErrorCode.TlsConfig,
      `the client certificate ${tls.cert} does not match the private key ${tls.key} (key mismatch)`,
    );
}

/** Wraps a fetch so a TLS failure is named (see `tlsFailure`) instead of "cannot reach the host". */
function namingTlsFailures(f: typeof fetch, m: TlsMaterial): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    try {
      return await f(input, init);
    } catch (err) {
      const href =
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if ((err as { name?: string })?.name !== 'TypeError') throw err;
      throw (await tlsFailure(err, new URL(href), m)) ?? err;
    }
  }) as typeof fetch;
}
