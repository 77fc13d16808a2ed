import type { FastifyRequest } from 'fastify';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { CallerTier, Principal, PrincipalUser } from '../../common/auth/principal';

/** The operator principal (one per server). */
export const OPERATOR: Principal = Object.freeze({ id: 'operator', tier: 'operator' });

/** A keyed principal for a verified API key id and the scopes signed into the key. */
export function keyedPrincipal(keyId: string, scopes: readonly string[] = []): Principal {
  return { id: `key:${keyId}`, tier: 'keyed', keyId, scopes };
}

/**
 * The anonymous principal of one client address (`request.ip`, which honours X-Forwarded-For
 * only through the configured trusted proxy hops). The address shapes rate limits and keys the
 * harness context binding; it grants no task access: every anonymous caller's tasks share one
 * owner (`ANONYMOUS_TASK_OWNER`, see `PrincipalUser.userName`).
 */
export function anonymousPrincipal(request: Pick<FastifyRequest, 'ip'>): Principal {
  return { id: `anon:${request.ip}`, tier: 'anonymous' };
}

/**
 * The caller's tier as the agent executor sees it, from the SDK call context
 * (`requestContext.context`). Anonymous when the context has no {@link PrincipalUser}.
 */
export function callerTier(context: ServerCallContext | undefined): CallerTier {
  const user = context?.user;
  return user instanceof PrincipalUser ? user.principal.tier : 'anonymous';
}

/** The caller's API key id (`kid`) when it presented a key. */
export function callerKeyId(context: ServerCallContext | undefined): string | undefined {
  const user = context?.user;
  return user instanceof PrincipalUser ? user.principal.keyId : undefined;
}
