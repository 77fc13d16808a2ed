import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { superqodeHome } from '../../../config/client-env';
import type { OAuthClient } from './oauth-grants';

/** Tokens and client registration kept for one agent scheme. */
export interface StoredTokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms after which the access token is treated as expired (absent: unknown). */
  expiresAt?: number;
  scope?: string;
  /** Client the tokens were issued to (env-configured or dynamically registered). */
  clientId: string;
  /** Secret of a dynamically registered confidential client (never an env-configured one). */
  clientSecret?: string;
  /** Issuer of the authorization server. */
  issuer: string;
  /** Flow that obtained the tokens (`device code`, `authorization code`, `client credentials`). */
  flow: string;
}

/** Where OAuth tokens live, keyed by `<card URL>#<scheme name>`. */
export interface TokenStore {
  /** `keyring` or `file`, for messages. */
  readonly kind: string;
  get(key: string): StoredTokens | undefined;
  set(key: string, tokens: StoredTokens): void;
  /** True when something was deleted. */
  delete(key: string): boolean;
  /** A client dynamically registered at `issuer` for `grant` (RFC 7591), reused across agents. */
  getClient(issuer: string, grant: string): OAuthClient | undefined;
  setClient(issuer: string, grant: string, client: OAuthClient): void;
  deleteClient(issuer: string, grant: string): void;
}

/** Store key of a registered client: one per authorization server and grant. */
const CLIENT_KEY_PREFIX = 'client ';
function clientKey(issuer: string, grant: string): string {
  return `${CLIENT_KEY_PREFIX}${issuer} ${grant}`;
}

/** get/set/delete of JSON values under string keys; both stores build on it. */
abstract class JsonStore implements TokenStore {
  abstract readonly kind: string;
  protected abstract read(key: string): unknown;
  protected abstract write(key: string, value: unknown): void;
  abstract delete(key: string): boolean;

  get(key: string): StoredTokens | undefined {
    return this.read(key) as StoredTokens | undefined;
  }
  set(key: string, tokens: StoredTokens): void {
    this.write(key, tokens);
  }
  getClient(issuer: string, grant: string): OAuthClient | undefined {
    return this.read(clientKey(issuer, grant)) as OAuthClient | undefined;
  }
  setClient(issuer: string, grant: string, client: OAuthClient): void {
    this.write(clientKey(issuer, grant), client);
  }
  deleteClient(issuer: string, grant: string): void {
    this.delete(clientKey(issuer, grant));
  }
}

/** Token store key of an agent scheme: `<card URL>#<scheme name>`. */
export function tokenKey(cardUrl: string, scheme: string): string {
  return `${cardUrl}#${scheme}`;
}

/** Keyring service name of stored A2A OAuth tokens. */
export const KEYRING_SERVICE = 'superqode-a2a-oauth';

interface KeyringEntry {
  getPassword(): string | null | undefined;
  setPassword(password: string): void;
  deletePassword(): boolean;
}
interface KeyringModule {
  Entry: new (service: string, account: string) => KeyringEntry;
}

/** The OS keyring (macOS Keychain, Windows Credential Manager, Secret Service) via @napi-rs/keyring. */
export class KeyringTokenStore extends JsonStore {
  readonly kind = 'keyring';
  constructor(private readonly keyring: KeyringModule) {
    super();
  }

  protected read(key: string): unknown {
    const text = new this.keyring.Entry(KEYRING_SERVICE, key).getPassword();
    return text ? (JSON.parse(text) as unknown) : undefined;
  }
  protected write(key: string, value: unknown): void {
    new this.keyring.Entry(KEYRING_SERVICE, key).setPassword(JSON.stringify(value));
  }
  delete(key: string): boolean {
    try {
      return new this.keyring.Entry(KEYRING_SERVICE, key).deletePassword();
    } catch {
      return false;
    }
  }
}

/**
 * Files under `~/.superqode/a2a-oauth/` (dir 0700, files 0600), one per key, named by its SHA-256
 * (`client-<hash>.json` for registered clients). Plain JSON: the file is the secret (see README).
 */
export class FileTokenStore extends JsonStore {
  readonly kind = 'file';
  constructor(readonly dir: string = join(superqodeHome(), 'a2a-oauth')) {
    super();
  }

  private path(key: string): string {
    const hash = createHash('sha256').update(key).digest('hex').slice(0, 32);
    return join(this.dir, `${key.startsWith(CLIENT_KEY_PREFIX) ? 'client-' : ''}${hash}.json`);
  }
  protected read(key: string): unknown {
    try {
      return (JSON.parse(readFileSync(this.path(key), 'utf8')) as { key: string; tokens: unknown })
        .tokens;
    } catch {
      return undefined;
    }
  }
  protected write(key: string, tokens: unknown): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const file = this.path(key);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ key, tokens }), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  }
  delete(key: string): boolean {
    const had = this.read(key) !== undefined;
    rmSync(this.path(key), { force: true });
    return had;
  }
}

/** Loads @napi-rs/keyring and checks the platform store answers (a probe write, read, delete). */
function usableKeyring(): KeyringModule | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const keyring = require('@napi-rs/keyring') as KeyringModule;
    const probe = new keyring.Entry(KEYRING_SERVICE, '__probe__');
    probe.setPassword('1');
    const ok = probe.getPassword() === '1';
    probe.deletePassword();
    return ok ? keyring : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The token store: `keyring` or `file` when asked, otherwise (`auto`) the OS keyring when it
 * works here, else files. Headless Linux without a Secret Service falls back to files.
 */
export function openTokenStore(mode: string | undefined): TokenStore {
  if (mode === 'file') return new FileTokenStore();
  const keyring = usableKeyring();
  if (keyring) return new KeyringTokenStore(keyring);
  if (mode === 'keyring')
    throw new Error('the OS keyring is not available here (SUPERQODE_A2A_OAUTH_STORE=keyring)');
  return new FileTokenStore();
}
