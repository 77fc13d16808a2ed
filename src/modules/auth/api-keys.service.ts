import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../common/runtime/clock';
import { HarnessAccess, effectiveHarnessAccess } from '../../config/a2a.config';
import {
  ApiKeyError,
  ApiKeyErrorCode,
  ApiKeyVerification,
  IssueApiKeyOptions,
  IssuedApiKey,
  issueApiKey,
  verifyApiKey,
} from './api-key';

/** The variables the API-key settings are read from (see {@link ApiKeysConfig}). */
export const API_KEY_VARIABLES = [
  'SUPERQODE_A2A_KEY_SECRET',
  'SUPERQODE_A2A_REVOKED_KEYS',
  'SUPERQODE_A2A_TOKEN',
  'SUPERQODE_A2A_HARNESS_ACCESS',
  'SUPERQODE_A2A_EXPOSE_HARNESS',
] as const;

/** A variable of {@link API_KEY_VARIABLES}. */
export type ApiKeyVariable = (typeof API_KEY_VARIABLES)[number];

/**
 * `ConfigService` key of the invalid {@link API_KEY_VARIABLES} and the schema's message for each
 * (`a2a-keys`, which reads them on their own; the server refuses to start with any of them).
 */
export const API_KEY_SETTING_PROBLEMS = 'apiKeySettingProblems';

/** `ConfigService` key of why the settings could not be read at all (`a2a-keys`: `./.env` unreadable). */
export const API_KEY_SETTINGS_UNREADABLE = 'apiKeySettingsUnreadable';

/**
 * The API-key settings, read through `@nestjs/config`: SUPERQODE_A2A_KEY_SECRET,
 * SUPERQODE_A2A_REVOKED_KEYS, whether SUPERQODE_A2A_TOKEN is set and the harness access. In the
 * server from the env validated at start; in `a2a-keys` from the same sources, each variable
 * validated on its own (`validateEnvVariables`), the invalid ones kept raw and named in `problems`.
 * The secret sits in an ECMAScript private field, so logging or serialising this object never
 * shows it.
 */
@Injectable()
export class ApiKeysConfig {
  readonly #secret: string | undefined;
  /** Revoked key ids (`kid`), from the comma-separated SUPERQODE_A2A_REVOKED_KEYS. */
  readonly revokedKeyIds: ReadonlySet<string>;
  /** True when an operator token (SUPERQODE_A2A_TOKEN) is set; its value is not kept here. */
  readonly operatorTokenConfigured: boolean;
  /** Who may run the harness (SUPERQODE_A2A_HARNESS_ACCESS, or its default). */
  readonly harnessAccess: HarnessAccess;
  /** Invalid variables and why (never their values); empty in a server, which validated them. */
  readonly problems: Readonly<Partial<Record<ApiKeyVariable, string>>>;

  /** Why the settings could not be read (`a2a-keys` with an unreadable `./.env`); else undefined. */
  readonly unreadable: string | undefined;

  constructor(config: ConfigService) {
    this.problems = config.get(API_KEY_SETTING_PROBLEMS) ?? {};
    this.unreadable = config.get<string>(API_KEY_SETTINGS_UNREADABLE);
    const secret = config.get<string>('SUPERQODE_A2A_KEY_SECRET');
    this.#secret = secret ? secret : undefined;
    this.revokedKeyIds = new Set(toIdList(config.get<unknown>('SUPERQODE_A2A_REVOKED_KEYS')));
    this.operatorTokenConfigured = Boolean(config.get<string>('SUPERQODE_A2A_TOKEN'));
    this.harnessAccess = effectiveHarnessAccess(
      config.get<HarnessAccess>('SUPERQODE_A2A_HARNESS_ACCESS'),
      config.get<boolean>('SUPERQODE_A2A_EXPOSE_HARNESS') === true,
    );
  }

  /** The HMAC signing secret, or undefined when none is configured. Never log it. */
  signingSecret(): string | undefined {
    return this.#secret;
  }
}

/**
 * Revoked ids as the schema parsed them (`string[]`). An invalid list stays raw in `a2a-keys`
 * and revokes nothing here: `verify` refuses to run on it and `status` reports it instead.
 */
function toIdList(raw: unknown): string[] {
  return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string') : [];
}

/** What `a2a-keys status` reports; booleans and key ids, never a secret value. */
export interface ApiKeysStatus {
  /** SUPERQODE_A2A_KEY_SECRET is set (keys can be issued and accepted when it is valid). */
  readonly secretConfigured: boolean;
  /** Invalid variables and why (never their values); the server refuses to start with any. */
  readonly problems: Readonly<Partial<Record<ApiKeyVariable, string>>>;
  /** Why the settings could not be read at all; then nothing else here is meaningful. */
  readonly unreadable: string | undefined;
  /** The distinct revoked key ids, sorted (ids are not secret: what a list in fact revokes). */
  readonly revokedIds: readonly string[];
  /** SUPERQODE_A2A_TOKEN is set. */
  readonly operatorTokenConfigured: boolean;
  /** Who may run the harness; under `keyed`, keys need the scope `harness`. */
  readonly harnessAccess: HarnessAccess;
}

/**
 * Signed API keys with the configured secret, revocation list and clock. Stateless: a key is
 * checked by its signature alone, nothing is stored or looked up (issue #3).
 * @see ./api-key.ts for the format and the order of checks.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly config: ApiKeysConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Issues a key valid from now for `opts.days` days (default 30).
   * @returns The key text (show it once; it is not stored) and its claims.
   * @throws {ApiKeyError} `no_secret` when SUPERQODE_A2A_KEY_SECRET is not set;
   *   `invalid_options` for a bad label, tier, days value or scope.
   */
  issue(opts: IssueApiKeyOptions): IssuedApiKey {
    const secret = this.config.signingSecret();
    if (!secret) {
      throw new ApiKeyError(
        ApiKeyErrorCode.NoSecret,
        'cannot issue API keys: SUPERQODE_A2A_KEY_SECRET is not set ' +
          '(create one with `superqode a2a-keys secret`)',
      );
    }
    return issueApiKey(secret, opts, this.clock.now());
  }

  /**
   * Verifies a presented key against the secret, the revocation list and the clock.
   * @param key - Key text as presented; undefined or empty is rejected as `missing`.
   * @returns Claims and live/test, or a rejection code with its message. Never throws.
   */
  verify(key: string | undefined): ApiKeyVerification {
    const { config } = this;
    return verifyApiKey(key, config.signingSecret(), config.revokedKeyIds, this.clock.now());
  }

  /** Whether keys can be issued/accepted, how many ids are revoked, whether a token is set, harness access. */
  status(): ApiKeysStatus {
    return {
      secretConfigured: this.config.signingSecret() !== undefined,
      revokedIds: [...this.config.revokedKeyIds].sort(),
      operatorTokenConfigured: this.config.operatorTokenConfigured,
      harnessAccess: this.config.harnessAccess,
      problems: this.config.problems,
      unreadable: this.config.unreadable,
    };
  }
}
