import { CommandRunner, Option } from 'nest-commander';
import type { A2AClientOptions } from '../a2a-client';
import { CLIENT_ENV, clientEnv } from '../../../config/client-env';
import type { ClientTrace } from '../client-trace';
import type { TlsFiles } from '../tls-fetch';
import { parseOrigin } from '../credential-policy';

/**
 * A flag value refused by an `@Option` parser. Commander recognises it by `code`, prints one
 * line and exits with `exitCode` 2 (usage error).
 */
export class UsageError extends Error {
  /** Commander's code for a refused option argument. */
  readonly code = 'commander.invalidArgument';
  /** Process exit code: 2, a usage error. */
  readonly exitCode = 2;
}

/** Flags shared by every command that reaches an agent. */
export interface ConnectionFlags {
  /** `--token T`; else `SUPERQODE_A2A_CLIENT_TOKEN`. */
  token?: string;
  /** `--header NAME:VALUE`, repeatable. */
  header?: [string, string][];
  tlsCert?: string;
  tlsKey?: string;
  tlsCa?: string;
  /** `--timeout SECONDS` per request (default 60). */
  timeout?: number;
  /** `--json`: one JSON document on stdout instead of text. */
  json?: boolean;
  /** `--trust-origin ORIGIN`, repeatable: more origins that may receive credentials. */
  trustOrigin?: string[];
  /** `--allow-insecure`: credentials may go over plain HTTP to a non-loopback host. */
  allowInsecure?: boolean;
}

/**
 * `NAME:VALUE` → `[NAME, VALUE]` (value trimmed; may itself contain colons).
 * @throws {UsageError} No colon, empty name, or a name that is not an HTTP token.
 * @see RFC 9110 §5.1 (field names are tokens).
 */
export function parseHeader(value: string): [string, string] {
  const i = value.indexOf(':');
  const name = i > 0 ? value.slice(0, i).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new UsageError(`--header takes NAME:VALUE, got "${value.slice(0, 40)}"`);
  return [name, value.slice(i + 1).trim()];
}

/**
 * `--timeout SECONDS`: 1-3600.
 * @throws {UsageError} Anything else.
 */
export function parseTimeoutSeconds(v: string): number {
  const n = /^\d{1,4}$/.test(v) ? Number(v) : NaN;
  if (!(n >= 1 && n <= 3600))
    throw new UsageError('--timeout must be a whole number of seconds from 1 to 3600');
  return n;
}

/** Where the token of a connection comes from. */
export interface TokenChoice {
  token?: string;
  /** Set when the token was read from this environment variable. */
  fromEnv?: string;
}

/** `--token` wins; else the client token variable; else none. */
export function chooseToken(flag: string | undefined): TokenChoice {
  if (flag) return { token: flag };
  const env = clientEnv(CLIENT_ENV.TOKEN);
  return env ? { token: env, fromEnv: CLIENT_ENV.TOKEN } : {};
}

/** TLS file paths from the flags, or undefined when none was given. */
export function tlsFrom(f: ConnectionFlags): TlsFiles | undefined {
  return f.tlsCert || f.tlsKey || f.tlsCa
    ? { cert: f.tlsCert, key: f.tlsKey, ca: f.tlsCa }
    : undefined;
}

/** Client options for the flags (token from the flag or the environment). */
export function clientOptions(
  f: ConnectionFlags,
  trace: ClientTrace,
  token: TokenChoice = chooseToken(f.token),
): A2AClientOptions {
  return {
    token: token.token,
    tokenSource: token.fromEnv ? `$${token.fromEnv}` : '--token',
    headers: f.header ?? [],
    tls: tlsFrom(f),
    timeoutMs: f.timeout ? f.timeout * 1000 : undefined,
    trace,
    trustOrigins: f.trustOrigin,
    allowInsecure: f.allowInsecure,
  };
}

/** Base of the commands that reach an agent: the shared connection flags. */
export abstract class ConnectionCommand extends CommandRunner {
  @Option({
    flags: '--token <token>',
    description: `token; the card decides how it is sent (default $${CLIENT_ENV.TOKEN})`,
  })
  parseToken(v: string): string {
    return v;
  }

  @Option({
    flags: '--header <name:value>',
    description: 'extra header on every request (repeatable)',
  })
  parseHeaderFlag(v: string, previous: [string, string][] = []): [string, string][] {
    return [...previous, parseHeader(v)];
  }

  @Option({ flags: '--tls-cert <file>', description: 'client certificate (PEM) for mutual TLS' })
  parseTlsCert(v: string): string {
    return v;
  }

  @Option({ flags: '--tls-key <file>', description: 'client private key (PEM) for mutual TLS' })
  parseTlsKey(v: string): string {
    return v;
  }

  @Option({
    flags: '--tls-ca <file>',
    description: 'CA bundle (PEM) to trust for the server certificate',
  })
  parseTlsCa(v: string): string {
    return v;
  }

  @Option({
    flags: '--timeout <seconds>',
    description: 'time bound per request, 1-3600 s (default 60)',
  })
  parseTimeout(v: string): number {
    return parseTimeoutSeconds(v);
  }

  @Option({
    flags: '--trust-origin <origin>',
    description:
      "also send credentials to this origin (an interface not on the card's origin; repeatable)",
  })
  parseTrustOrigin(v: string, previous: string[] = []): string[] {
    const origin = parseOrigin(v);
    if (!origin)
      throw new UsageError(
        `--trust-origin takes an http(s) origin such as https://api.example, got "${v.slice(0, 60)}"`,
      );
    return [...previous, origin];
  }

  @Option({
    flags: '--allow-insecure',
    description: 'allow credentials over plain HTTP to a non-loopback host',
  })
  parseAllowInsecure(): boolean {
    return true;
  }

  @Option({ flags: '--json', description: 'print one JSON document instead of text' })
  parseJson(): boolean {
    return true;
  }
}
