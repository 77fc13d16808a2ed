import { HttpStatus } from '@nestjs/common';
import type { SecurityRequirement } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { BEARER_SCHEME } from '../../agent-card/agent-card.constants';
import { PrincipalUser } from '../../../common/auth/principal';
import type { Principal } from '../../../common/auth/principal';
import { A2aHttpException } from '../../../common/errors/http-rejections';
import type { HarnessAccess } from '../../../config/a2a.config';

/** The API-key scope that lets a keyed caller run the harness under `--harness-access keyed`. */
export const HARNESS_SCOPE = 'harness';

const REALM = 'realm="superqode-a2a"';

/** The caller of a request, from the SDK call context; undefined means anonymous. */
export function callerPrincipal(context: ServerCallContext | undefined): Principal | undefined {
  const user = context?.user;
  return user instanceof PrincipalUser ? user.principal : undefined;
}

/**
 * Whether a caller may run the harness under an access setting (issue #12):
 * - `anonymous`: everyone;
 * - `keyed`: the operator, and API keys whose signed claims carry the scope `harness`;
 * - `operator`: the `--token` holder only.
 * @param principal - The caller (undefined or tier `anonymous`: no credential presented).
 * @returns undefined when allowed; else the rejection to answer with, before any task exists:
 *   401 without a credential (`WWW-Authenticate: Bearer realm=…`, with `scope="harness"` under
 *   `keyed`), 403 with one that is not enough (`error="insufficient_scope"`), naming what is needed.
 *   Messages and headers are ASCII and never echo the credential.
 * @see RFC 6750 §3 (WWW-Authenticate), §3.1 (insufficient_scope → 403).
 */
export function harnessAccessRefusal(
  principal: Principal | undefined,
  access: HarnessAccess,
): A2aHttpException | undefined {
  const tier = principal?.tier ?? 'anonymous';
  if (access === 'anonymous' || tier === 'operator') return undefined;
  const needed =
    access === 'keyed'
      ? `an API key issued with --scope ${HARNESS_SCOPE}, or the operator token`
      : 'the operator token';
  const scope = access === 'keyed' ? `, scope="${HARNESS_SCOPE}"` : '';
  if (tier === 'anonymous') {
    return new A2aHttpException(
      HttpStatus.UNAUTHORIZED,
      `The superqode-harness skill needs ${needed}: send Authorization: Bearer <credential>.`,
      { 'WWW-Authenticate': `Bearer ${REALM}${scope}` },
    );
  }
  if (access === 'keyed' && principal?.scopes?.includes(HARNESS_SCOPE)) return undefined;
  const reason =
    access === 'keyed'
      ? `This API key lacks the '${HARNESS_SCOPE}' scope: the superqode-harness skill needs ${needed}.`
      : 'The superqode-harness skill on this server is for the operator only: it needs the operator token.';
  return new A2aHttpException(HttpStatus.FORBIDDEN, reason, {
    'WWW-Authenticate': `Bearer ${REALM}, error="insufficient_scope"${scope}`,
  });
}

/**
 * The harness skill's `AgentSkill.securityRequirements`: none under `anonymous`; else the card's
 * bearer scheme with the role it needs (`harness` under `keyed`, `operator` under `operator`), as
 * OpenAPI 3.1 allows role names for non-OAuth schemes.
 * @see A2A specification §4.4.5 AgentSkill.securityRequirements; OpenAPI 3.1 Security Requirement.
 */
export function harnessSecurityRequirements(access: HarnessAccess): SecurityRequirement[] {
  if (access === 'anonymous') return [];
  return [
    { schemes: { [BEARER_SCHEME]: { list: [access === 'keyed' ? HARNESS_SCOPE : 'operator'] } } },
  ];
}
