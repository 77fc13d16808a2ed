import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Principal } from '../../common/auth/principal';
import { unauthorized } from '../../common/errors/http-rejections';
import type { ConfigType } from '@nestjs/config';
import { accessConfig } from '../../config/namespaces';
import { ApiKeysService } from './api-keys.service';
import { OPERATOR, keyedPrincipal } from './callers';

/** Passport strategy name of the bearer credential. */
export const BEARER_STRATEGY = 'a2a-bearer';

/**
 * Verifies a bearer credential (RFC 6750): the operator token (constant-time comparison) or a
 * signed API key (`sqk_live_...` / `sqk_test_...`).
 * @throws {A2aHttpException} 401 with the reason and `WWW-Authenticate: Bearer error="invalid_token"`.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, BEARER_STRATEGY) {
  constructor(
    @Inject(accessConfig.KEY) private readonly config: ConfigType<typeof accessConfig>,
    private readonly keys: ApiKeysService,
  ) {
    super();
  }

  validate(token: string): Principal {
    if (this.config.matchesOperatorToken(token)) return OPERATOR;
    if (token.startsWith('sqk_')) {
      const verdict = this.keys.verify(token);
      if (verdict.ok) return keyedPrincipal(verdict.claims.kid, verdict.claims.scopes);
      throw unauthorized(verdict.message, true);
    }
    throw unauthorized(
      !this.config.operatorTokenConfigured
        ? 'Unrecognised credential: expected a signed API key (sqk_live_... or sqk_test_...).'
        : 'Unrecognised credential: not the operator token nor a signed API key.',
      true,
    );
  }
}
