import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { resolveUserScope } from '@a2a-js/sdk/server';
import type { OwnerResolver, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { fromTaskRow, TERMINAL_STATES, toTaskEntity } from './task.entity';
import type { TaskEntity, TaskPayloadRow, TaskScope } from './task.entity';
import {
  DEFAULT_MAX_LIST_REPLY_BYTES,
  DEFAULT_MAX_PAGE_SIZE,
  encodePageToken,
  listSelection,
  withinBytes,
} from './task-list-queries';
import type { ListSelection } from './task-list-queries';

/** Tasks past this share above `maxTasks` trigger pruning (hysteresis: not every save). */
export const RETENTION_SLACK = 0.1;

/** Construction options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /**
   * Task cap (positive integer) over all tenants and owners. Past 10% over, the least recently
   * saved tasks are dropped down to the cap, terminal states (completed, failed, canceled,
   * rejected) before any other: the order the durable stores' retention deletes in (by last
   * save), except that those never delete unfinished tasks. Default none.
   */
  maxTasks?: number | null;
  /**
   * Budget of the kept JSON columns (status, artifacts, history, metadata), bytes: past 10% over,
   * tasks are dropped in the same order down to it, but never the task saved last. A task cap
   * alone does not bound memory: one message may be as large as the body limit (1 MiB by
   * default, up to 64 MiB). Default none.
   */
  maxBytes?: number | null;
  /** Owner of a call; default the SDK's `resolveUserScope` (`user.userName || 'unknown'`). */
  ownerResolver?: OwnerResolver;
  /** Clock of the bookkeeping fields, epoch ms; default `Date.now`. */
  nowMs?: () => number;
  /** Page size cap (1-100) of `list`; default 100. */
  maxPageSize?: number;
  /** Stored JSON bytes one list page may carry (see `TypeOrmTaskStore`). */
  maxListReplyBytes?: number;
}

const TERMINAL = new Set(TERMINAL_STATES);

/** JSON text at least this long (UTF-16 code units) is kept as UTF-8 bytes off the V8 heap. */
const OFF_HEAP_MIN_CHARS = 1024;

/** A JSON column as kept: short text as is, long text as its UTF-8 bytes (not pooled). */
type Kept = string | Buffer | null;

/** A row of {@link toTaskEntity} with its JSON columns kept by {@link keep}. */
interface KeptRow extends Omit<TaskEntity, 'status' | 'artifacts' | 'history' | 'metadata'> {
  status: Kept;
  artifacts: Kept;
  history: Kept;
  metadata: Kept;
}

/**
 * Long JSON text as UTF-8 outside the V8 heap: a one-byte string of the 6 KB shortlist answer is
 * stored as-is, but any non-Latin-1 character makes V8 keep the whole string at 2 bytes per
 * character, and every heap byte is marked by each major GC (the 10,000-task cap held ~640 MiB RSS
 * as strings in `npm run bench`).
 */
function keep(text: string | null): Kept {
  if (text === null || text.length < OFF_HEAP_MIN_CHARS) return text;
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 'utf8');
  return bytes;
}

/** Bytes a kept column holds (a short string counted at one byte per character). */
function sizeOf(kept: Kept): number {
  return kept === null ? 0 : kept.length;
}

/** The kept size of a row's JSON columns, bytes. */
function rowBytes(r: KeptRow): number {
  return sizeOf(r.status) + sizeOf(r.artifacts) + sizeOf(r.history) + sizeOf(r.metadata);
}

function textOf(kept: Kept): string | null {
  return kept === null || typeof kept === 'string' ? kept : kept.toString('utf8');
}

/** The row as `fromTaskRow` and `withinBytes` read it, with the columns a list asked for. */
function payloadOf(
  r: KeptRow,
  withArtifacts = true,
  withHistory = true,
): TaskPayloadRow & Pick<TaskEntity, 'statusTimestampMs'> {
  return {
    id: r.id,
    contextId: r.contextId,
    statusTimestampMs: r.statusTimestampMs,
    status: textOf(r.status),
    artifacts: withArtifacts ? textOf(r.artifacts) : null,
    history: withHistory ? textOf(r.history) : null,
    metadata: textOf(r.metadata),
  };
}

/**
 * The A2A `TaskStore` of the memory-only mode (`--no-task-store`; tasks lost at exit), with the
 * semantics of {@link TypeOrmTaskStore} (issue #14: SQLite `:memory:` cost ~150 µs of CPU per
 * stored task, a map ~5): tasks scoped by (tenant = `ctx.tenant ?? ''`, owner =
 * ownerResolver(ctx)); each kept as the row `TypeOrmTaskStore` would write (proto-JSON text from
 * `toTaskEntity`; long columns as UTF-8 bytes, see {@link keep}), so every read returns a fresh object and ListTasks orders, filters, pages
 * (the same cursors) and caps pages by stored bytes exactly as the SQL store does.
 * Nobody else can see this store, so rows carry no ownership lease.
 * @see SDK `InMemoryTaskStore` (unbounded; list sorts by timestamp strings).
 */
export class MemoryTaskStore implements TaskStore {
  private readonly logger = new Logger(MemoryTaskStore.name);
  /** Rows by scope key (`tenant`, NUL, `owner`), then by task id. */
  private readonly scopes = new Map<string, Map<string, KeptRow>>();
  private readonly ownerResolver: OwnerResolver;
  private readonly nowMs: () => number;
  private readonly maxTasks: number | null;
  private readonly maxBytes: number | null;
  /** {@link rowBytes} summed over every kept row. */
  private keptBytes = 0;
  private readonly maxPageSize: number;
  private readonly maxListReplyBytes: number;
  /** Every kept row, least recently saved first (a save replaces its task's row at the end). */
  private readonly bySave = new Set<KeptRow>();
  /** What the saves of the current event-loop turn resolve with (see {@link save}). */
  private turnSaved: Promise<void> | undefined;

  /** @throws {Error} `maxTasks` or `maxBytes` is not a positive integer. */
  constructor(options: MemoryTaskStoreOptions = {}) {
    this.ownerResolver = options.ownerResolver ?? resolveUserScope;
    this.nowMs = options.nowMs ?? Date.now;
    this.maxTasks = options.maxTasks ?? null;
    this.maxBytes = options.maxBytes ?? null;
    this.maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
    this.maxListReplyBytes = options.maxListReplyBytes ?? DEFAULT_MAX_LIST_REPLY_BYTES;
    if (this.maxTasks !== null && !(Number.isSafeInteger(this.maxTasks) && this.maxTasks > 0)) {
      throw new Error(`maxTasks must be a positive integer, got ${this.maxTasks}`);
    }
    if (this.maxBytes !== null && !(Number.isSafeInteger(this.maxBytes) && this.maxBytes > 0)) {
      throw new Error(`maxBytes must be a positive integer, got ${this.maxBytes}`);
    }
  }

  /**
   * Inserts or replaces the caller's task (its first save time is kept) at once: a load or list
   * made after the call sees it. The returned promise resolves with every other save of this turn
   * of the event loop, in the check phase that follows (`setImmediate`), as
   * `GroupCommitTaskStore` resolves the saves of the durable stores: the replies of
   * concurrent requests then leave together, in one pass of the event loop, instead of one pass
   * per request. In `npm run bench`'s setting (echo agent, JSON-RPC SendMessage, 10 connections,
   * server pinned to one CPU) that took the server CPU per request from ~231 to ~160 µs (user
   * ~190 → ~143, system ~41 → ~18) and req/s from ~4,300 to ~6,200; a lone request waits one
   * check phase longer.
   * @throws {Error} The task has no id (the promise rejects, nothing is kept).
   */
  save(task: Task, context: ServerCallContext): Promise<void> {
    try {
      this.apply(task, context);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return (this.turnSaved ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.turnSaved = undefined;
        resolve();
      }),
    ));
  }

  private apply(task: Task, context: ServerCallContext): void {
    const scope = this.scopeOf(context);
    const entity = toTaskEntity(scope, task, this.nowMs());
    const row: KeptRow = {
      ...entity,
      status: keep(entity.status),
      artifacts: keep(entity.artifacts),
      history: keep(entity.history),
      metadata: keep(entity.metadata),
    };
    const key = scopeKey(scope);
    let rows = this.scopes.get(key);
    if (!rows) this.scopes.set(key, (rows = new Map()));
    const previous = rows.get(row.id);
    if (previous) {
      row.createdAtMs = previous.createdAtMs;
      this.bySave.delete(previous);
      this.keptBytes -= rowBytes(previous);
    }
    rows.set(row.id, row);
    this.bySave.add(row);
    this.keptBytes += rowBytes(row);
    if (this.overLimits(1 + RETENTION_SLACK)) this.enforceRetention(row);
  }

  /** True when the kept tasks or bytes are over `factor` times their cap. */
  private overLimits(factor: number): boolean {
    return (
      (this.maxTasks !== null && this.bySave.size > Math.floor(this.maxTasks * factor)) ||
      (this.maxBytes !== null && this.keptBytes > Math.floor(this.maxBytes * factor))
    );
  }

  /**
   * The caller's task, as a fresh object; undefined when absent or owned by another scope.
   * @throws {Error} `task "<id>" is not readable` (never for rows this store wrote).
   */
  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const row = this.scopes.get(scopeKey(this.scopeOf(context)))?.get(taskId);
    return row ? fromTaskRow(payloadOf(row)) : undefined;
  }

  /**
   * The caller's tasks, newest status timestamp first (then id descending), one page at a time,
   * with the shapes and caps of `TypeOrmTaskStore.list`.
   * @throws {RequestMalformedError} Malformed `pageToken`, `statusTimestampAfter` or `pageSize`.
   */
  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const selection = listSelection(params, this.maxPageSize);
    const rows = this.scopes.get(scopeKey(this.scopeOf(context)));
    const matching = rows ? [...rows.values()].filter((r) => selects(selection, r)) : [];
    matching.sort(newestFirst);
    const { cursor, pageSize } = selection;
    const start = cursor ? matching.findIndex((r) => isBefore(r, cursor)) : 0;
    const after = start < 0 ? [] : matching.slice(start, start + pageSize + 1);
    const listed = after
      .slice(0, pageSize)
      .map((r) => payloadOf(r, selection.withArtifacts, selection.withHistory));
    const page = withinBytes(listed, this.maxListReplyBytes);
    const last = page.at(-1);
    const nextPageToken =
      after.length > page.length && last ? encodePageToken(last.statusTimestampMs, last.id) : '';
    return {
      tasks: page.map((r) => fromTaskRow(r)),
      nextPageToken,
      pageSize,
      totalSize: matching.length,
    };
  }

  private scopeOf(context: ServerCallContext): TaskScope {
    return { tenant: context.tenant ?? '', owner: this.ownerResolver(context) };
  }

  /**
   * Called once more than 10% over a cap: drops the least recently saved terminal tasks until
   * within both caps, then, if unfinished tasks alone are still over one, the least recently
   * saved of those; `saved` (the row just saved) is never dropped. Walks the save order from its
   * oldest end: work proportional to the rows dropped and the unfinished rows passed over, never
   * a sort of the whole store.
   */
  private enforceRetention(saved: KeptRow): void {
    for (const terminalOnly of [true, false]) {
      for (const row of this.bySave) {
        if (!this.overLimits(1) || row === saved) break;
        if (terminalOnly && !TERMINAL.has(row.statusState ?? '')) continue;
        this.bySave.delete(row);
        this.keptBytes -= rowBytes(row);
        const key = scopeKey(row);
        const rows = this.scopes.get(key);
        rows?.delete(row.id);
        if (rows?.size === 0) this.scopes.delete(key);
      }
    }
    this.logger.debug(`Pruned the memory task store down to ${this.bySave.size} tasks.`);
  }
}

function scopeKey(scope: TaskScope): string {
  return `${scope.tenant}\u0000${scope.owner}`;
}

function selects(s: ListSelection, r: KeptRow): boolean {
  return (
    (s.contextId === undefined || r.contextId === s.contextId) &&
    (s.state === undefined || r.statusState === s.state) &&
    (s.afterMs === undefined || r.statusTimestampMs > s.afterMs)
  );
}

/** List order: status timestamp descending, then id descending. */
function newestFirst(a: KeptRow, b: KeptRow): number {
  return b.statusTimestampMs - a.statusTimestampMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** `(ts, id) < cursor` in list order: what the SQL store's keyset condition selects. */
function isBefore(r: KeptRow, cursor: { timestampMs: number; id: string }): boolean {
  return (
    r.statusTimestampMs < cursor.timestampMs ||
    (r.statusTimestampMs === cursor.timestampMs && r.id < cursor.id)
  );
}
