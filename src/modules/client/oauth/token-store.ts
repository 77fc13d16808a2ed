import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { superqodeHome } from '../../../config/client-env';

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
export class KeyringTokenStore implements TokenStore {
  readonly kind = 'keyring';
  constructor(private readonly keyring: KeyringModule) {}

  get(key: string): StoredTokens | undefined {
    const text = new this.keyring.Entry(KEYRING_SERVICE, key).getPassword();
    return text ? (JSON.parse(text) as StoredTokens) : undefined;
  }
  set(key: string, tokens: StoredTokens): void {
    new this.keyring.Entry(KEYRING_SERVICE, key).setPassword(JSON.stringify(tokens));
  }
  delete(key: string): boolean {
    try {
      return new this.keyring.Entry(KEYRING_SERVICE, key).deletePassword();
    } catch {
      return false;
    }
  }
}

/** Files under `~/.superqode/a2a-oauth/` (dir 0700, files 0600), one per key, named by its SHA-256. */
export class FileTokenStore implements TokenStore {
  readonly kind = 'file';
  constructor(readonly dir: string = join(superqodeHome(), 'a2a-oauth')) {}

  private path(key: string): string {
    return join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
  }
  get(key: string): StoredTokens | undefined {
    try {
      return (
        JSON.parse(readFileSync(this.path(key), 'utf8')) as { key: string; tokens: StoredTokens }
      ).tokens;
    } catch {
      return undefined;
    }
  }
  set(key: string, tokens: StoredTokens): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const file = this.path(key);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ key, tokens }), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  }
  delete(key: string): boolean {
    const had = this.get(key) !== undefined;
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
