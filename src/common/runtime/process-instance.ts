import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * This process's identity as the owner of leased work (WORKING tasks, running ledger runs):
 * `<host>:<pid>:<8 random hex>`, new at every start, so a restarted server never mistakes the
 * previous process's work for its own.
 */
@Injectable()
export class ProcessInstance {
  /** Owner id recorded in `lease_owner` columns. */
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Whether the process behind an owner id (from {@link ProcessInstance.id}) is certainly gone:
 * it ran on this host, under another pid, and no process with that pid exists now. Lets a
 * restarted server take over its crashed predecessor's work at once instead of after the lease.
 * False whenever unsure (another host, this pid, a reused pid, an id of another shape).
 */
export function ownerIsGone(owner: string | null): boolean {
  const match = owner ? /^(.*):(\d+):[0-9a-f]{8}$/.exec(owner) : null;
  if (!match || match[1] !== hostname() || Number(match[2]) === process.pid) return false;
  try {
    process.kill(Number(match[2]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** `LIKE` pattern of owner ids of this host (candidates for {@link ownerIsGone}). */
export function thisHostOwners(): string {
  return `${hostname().replace(/[\\%_]/g, (c) => `\\${c}`)}:%`;
}
