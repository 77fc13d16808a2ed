import type { User } from '@a2a-js/sdk/server';

/** Access tier of a caller (issue #3): anonymous, signed API key, or operator token. */
export type CallerTier = 'anonymous' | 'keyed' | 'operator';

/**
 * Task owner shared by every anonymous caller (issue #11.7): an anonymous caller reads, cancels and
 * subscribes to a task by its id (an unguessable UUID), and lists only the tasks of a contextId it
 * names, whatever its address. Keyed and operator callers own their tasks strictly.
 */
export const ANONYMOUS_TASK_OWNER = 'anonymous';

/**
 * The authenticated caller of one request, set on `request.principal` by the auth guard.
 * Task ownership: keyed and operator tasks are visible only to the principal that created them
 * (owner = `id`); anonymous tasks belong to {@link ANONYMOUS_TASK_OWNER}.
 */
export interface Principal {
  /**
   * Caller id (e.g. `key:<kid>`, `operator`, `anon:<address>`): the task owner for keyed and
   * operator callers; for anonymous callers it keys the harness context binding only.
   */
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
 * The SDK `User` for a principal (getters, as the SDK's owner resolver requires). `userName` is
 * the task owner the store scopes by (`resolveUserScope`): the principal id, or
 * {@link ANONYMOUS_TASK_OWNER} for every anonymous caller.
 * @see docs/a2a-sdk-on-fastify.md §5: `User` fields must be getters or plain properties.
 */
export class PrincipalUser implements User {
  constructor(readonly principal: Principal) {}
  get isAuthenticated(): boolean {
    return this.principal.tier !== 'anonymous';
  }
  get userName(): string {
    return this.principal.tier === 'anonymous' ? ANONYMOUS_TASK_OWNER : this.principal.id;
  }
}
