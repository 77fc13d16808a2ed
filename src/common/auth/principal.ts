import type { User } from '@a2a-js/sdk/server';

/** Access tier of a caller (issue #3): anonymous, signed API key, or operator token. */
export type CallerTier = 'anonymous' | 'keyed' | 'operator';

/**
 * The authenticated caller of one request, set on `request.principal` by the auth guard.
 * `id` scopes task ownership: a task is visible only to the principal that created it.
 */
export interface Principal {
  /** Owner id used by the task store (e.g. `key:<kid>`, `operator`). */
  readonly id: string;
  readonly tier: CallerTier;
  /** Signed API key id (`kid`), for keyed callers. */
  readonly keyId?: string;
  /** Scopes signed into the caller's API key (e.g. `harness`); empty or absent for other callers. */
  readonly scopes?: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth guard; absent means the anonymous caller. */
    principal?: Principal;
  }
}

/**
 * The SDK `User` for a principal (getters, as the SDK's owner resolver requires).
 * @see docs/a2a-sdk-on-fastify.md §5: `User` fields must be getters or plain properties.
 */
export class PrincipalUser implements User {
  constructor(readonly principal: Principal) {}
  get isAuthenticated(): boolean {
    return this.principal.tier !== 'anonymous';
  }
  get userName(): string {
    return this.principal.id;
  }
}
