import { Inject, Injectable } from '@nestjs/common';
import { ACTIVE_HARNESS } from './active-harness';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { LRUCache } from 'lru-cache';
import { HarnessLedgerService } from '../ledger/harness-ledger.service';
import { HarnessProtocolController } from '../protocol/harness-protocol';
import { HarnessSessionNotFoundError } from '../protocol/harness-protocol.errors';
import { HarnessRuntime } from './harness-runtime';

/** Context → session bindings kept in memory (the ledger holds them all durably). */
export const MAX_CACHED_CONTEXTS = 10_000;

/**
 * Maps each A2A `contextId` to one Harness Protocol session `a2a-<contextId>`, bound to the
 * principal that created it: later tasks in the context reuse the session's history, and another
 * principal is refused. Bindings live in the ledger (session metadata `owner`), with a bounded
 * in-memory cache in front.
 */
@Injectable()
export class ContextSessions {
  private readonly owners = new LRUCache<string, string>({ max: MAX_CACHED_CONTEXTS });

  constructor(
    @Inject(ACTIVE_HARNESS) private readonly harness: HarnessProtocolController,
    private readonly ledger: HarnessLedgerService,
    private readonly runtime: HarnessRuntime,
  ) {}

  /** The session id of a context. */
  static sessionId(contextId: string): string {
    return `a2a-${contextId}`;
  }

  /**
   * The context's owner, or undefined when the context has no session yet.
   */
  async ownerOf(contextId: string): Promise<string | undefined> {
    const cached = this.owners.get(contextId);
    if (cached !== undefined) return cached;
    try {
      const stored = await this.ledger.getSession(ContextSessions.sessionId(contextId));
      const owner = stored.record.metadata.owner;
      if (typeof owner === 'string') this.owners.set(contextId, owner);
      return typeof owner === 'string' ? owner : undefined;
    } catch (err) {
      if (err instanceof HarnessSessionNotFoundError) return undefined;
      throw err;
    }
  }

  /**
   * Refuses a context bound to another principal.
   * @throws {RequestMalformedError} The context belongs to another caller.
   */
  async authorize(contextId: string, principalId: string): Promise<void> {
    const owner = await this.ownerOf(contextId);
    if (owner !== undefined && owner !== principalId) {
      throw new RequestMalformedError(
        'This contextId belongs to another caller; start a new context.',
      );
    }
  }

  /** The session of a context, created (bound to `principalId`) on first use. */
  async ensure(contextId: string, principalId: string): Promise<string> {
    await this.authorize(contextId, principalId);
    const id = ContextSessions.sessionId(contextId);
    if ((await this.ownerOf(contextId)) === undefined) {
      const { spec, workingDir, model } = this.runtime;
      await this.harness.createSession({
        id,
        spec,
        workingDir,
        model,
        metadata: { contextId, owner: principalId },
      });
      this.owners.set(contextId, principalId);
    }
    return id;
  }
}
