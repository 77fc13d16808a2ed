import { CLIENT_ENV, clientEnv } from '../../config/client-env';

/** Keyring service of saved-connection tokens (account: the connection name). */
export const CONNECTION_KEYRING_SERVICE = 'superqode-a2a-connection';

/** The part of @napi-rs/keyring used here. */
export interface KeyringEntry {
  getPassword(): string | null | undefined;
  setPassword(password: string): void;
  deletePassword(): boolean;
}

/** A keyring module: @napi-rs/keyring's `Entry` constructor. */
export interface KeyringModule {
  Entry: new (service: string, account: string) => KeyringEntry;
}

/**
 * Runs `fn`, once more after a failure: on Linux without a Secret Service the first `Entry` of a
 * process answers AccessDenied and a new one works, so `fn` must create its own `Entry`.
 */
function twice<T>(fn: () => T): T {
  try {
    return fn();
  } catch {
    return fn();
  }
}

/**
 * @napi-rs/keyring when the OS keyring answers here (a probe write, read and delete), else
 * undefined (no platform store reachable).
 */
export function reachableKeyring(): KeyringModule | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const keyring = require('@napi-rs/keyring') as KeyringModule;
    const probe = (): KeyringEntry => new keyring.Entry(CONNECTION_KEYRING_SERVICE, '__probe__');
    twice(() => probe().setPassword('1'));
    const ok = twice(() => probe().getPassword()) === '1';
    twice(() => probe().deletePassword());
    return ok ? keyring : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the token of a saved connection goes: the OS keyring when it is reachable (or
 * `SUPERQODE_A2A_SECRET_STORE=keyring`, which fails without one), else the 0600 connections
 * file (`SUPERQODE_A2A_SECRET_STORE=file` forces it).
 */
export class ConnectionSecrets {
  private keyring: KeyringModule | undefined | null = null;

  /** The keyring to use, or undefined for the file. @throws {Error} `keyring` asked and unreachable. */
  private store(): KeyringModule | undefined {
    const mode = clientEnv(CLIENT_ENV.SECRET_STORE) ?? 'auto';
    if (mode === 'file') return undefined;
    if (this.keyring === null) this.keyring = reachableKeyring();
    if (!this.keyring && mode === 'keyring')
      throw new Error(`the OS keyring is not reachable here (${CLIENT_ENV.SECRET_STORE}=keyring)`);
    return this.keyring;
  }

  /** Stores `token` for `name`; true when it went to the keyring (the file then keeps no copy). */
  put(name: string, token: string): boolean {
    const k = this.store();
    if (!k) return false;
    twice(() => new k.Entry(CONNECTION_KEYRING_SERVICE, name).setPassword(token));
    return true;
  }

  /** The keyring token of `name`, or undefined. */
  get(name: string): string | undefined {
    try {
      const k = this.keyring ?? reachableKeyring();
      return k
        ? (new k.Entry(CONNECTION_KEYRING_SERVICE, name).getPassword() ?? undefined)
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** Deletes the keyring token of `name`, if any. */
  delete(name: string): void {
    try {
      const k = this.keyring ?? reachableKeyring();
      if (k) twice(() => new k.Entry(CONNECTION_KEYRING_SERVICE, name).deletePassword());
    } catch {
      // Nothing stored there.
    }
  }
}
