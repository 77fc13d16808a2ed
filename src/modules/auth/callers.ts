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
 * The anonymous principal of one client address. Each address owns its own tasks, so one
 * anonymous caller cannot read another's (the address comes from `request.ip`, which honours
 * X-Forwarded-For only through the configured trusted proxy hops).
 */
export function anonymousPrincipal(request: FastifyRequest): Principal {
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
