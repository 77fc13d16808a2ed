import { taskStateFromJSON } from '@a2a-js/sdk';
import type { AgentCard, ListTasksResponse, Message, StreamResponse, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { A2AClientError, A2AClientErrorCode } from './client.errors';
import { toClientError } from './client-fetch';
import { connectParts, type A2AClientOptions, type ConnectedParts } from './a2a-connect';
import type { AuthPlan } from './auth-plan';
import type { DiscoveredCard } from './card-discovery';
import type { InterfaceChoice } from './interface-choice';
import type { CardScheme } from './security-schemes';
import { textRequest, type MessageOptions } from './sdk-binding';
import { DEFAULT_STREAM_IDLE_MS, withIdleTimeout } from './idle-stream';

export type { A2AClientOptions } from './a2a-connect';

/** Options of a streaming send. */
export interface StreamOptions extends Omit<MessageOptions, 'blocking'> {
  /** No event for this long ends the stream with `TIMEOUT`, ms; 0 = no bound. */
  idleTimeoutMs?: number;
}

/** Filters of ListTasks. */
export interface ListTasksOptions {
  contextId?: string;
  /** 1-100; the server defaults to 50. */
  pageSize?: number;
  /** Cursor from a previous page's `nextPageToken`. */
  pageToken?: string;
  historyLength?: number;
  includeArtifacts?: boolean;
  /** Only tasks in this state (`working`, `input-required`, ...; any spelling `stateName` reads). */
  status?: string;
}

/**
 * An A2A client for one agent, built on the SDK's `Client`, adding what the SDK leaves out:
 * discovery with `agent.json` fallback, ETag revalidation and size/time bounds; interface choice
 * with reasons; credentials sent the way the card declares (Bearer, API key in header/query,
 * Basic, mutual TLS, OAuth); and a redacted trace.
 *
 * ```ts
 * const client = await A2AClient.connect('https://agent.example', { token });
 * const task = await client.send('hello');
 * await client.close();
 * ```
 * A2A error answers (TaskNotFound, TaskNotCancelable, ...) surface as the SDK's errors.
 * @see A2A specification §3 (operations), §5 (discovery).
 */
export class A2AClient {
  private constructor(private readonly parts: ConnectedParts) {}

  /**
   * Discovers the agent at `url` (base URL or pasted card URL), chooses an interface and decides
   * credentials. No A2A call is made yet.
   * @throws {A2AClientError} Discovery (`INVALID_URL`, `CARD_NOT_FOUND`, `CARD_PROTECTED`,
   *   `CARD_INVALID`, `RESPONSE_TOO_LARGE`, `TIMEOUT`, `UNREACHABLE`, `HTTP_ERROR`),
   *   `NO_USABLE_INTERFACE`, `AUTH_CONFIG`, `TLS_CONFIG`, `OAUTH`.
   */
  static async connect(url: string, options: A2AClientOptions = {}): Promise<A2AClient> {
    return new A2AClient(await connectParts(url, options));
  }

  /** The card as served (JSON). */
  get rawCard(): Record<string, unknown> {
    return this.parts.discovered.card;
  }
  /** The card in the SDK's shape. */
  get card(): AgentCard {
    return this.parts.sdkCard;
  }
  /** Where the card came from, its ETag, and whether a 304 reused the cached copy. */
  get discovery(): DiscoveredCard {
    return this.parts.discovered;
  }
  /** The chosen interface and the verdict on every entry. */
  get interface(): InterfaceChoice {
    return this.parts.choice;
  }
  /** What each request carries, per declared scheme. */
  get auth(): AuthPlan {
    return this.parts.plan;
  }
  /** The card's security schemes, normalised from either card shape. */
  get securitySchemes(): CardScheme[] {
    return this.parts.schemes;
  }
  /** The underlying SDK client (for push-notification config and other calls not wrapped here). */
  get sdk(): Client {
    return this.parts.sdk;
  }

  /**
   * SendMessage with one text part. Blocking by default: resolves when the task reaches a
   * terminal or interrupted state; `blocking: false` returns the task as soon as it exists.
   * @returns The task, or the agent's direct Message reply.
   */
  send(text: string, o: MessageOptions = {}): Promise<Task | Message> {
    return this.call(() => this.parts.sdk.sendMessage(textRequest(text, o)));
  }

  /**
   * SendStreamingMessage: the task, then status and artifact updates until the stream ends.
   * `idleTimeoutMs` (default {@link DEFAULT_STREAM_IDLE_MS}, 0 = none) ends a stream that sends
   * no event for that long with `TIMEOUT`.
   */
  stream(text: string, o: StreamOptions = {}): AsyncGenerator<StreamResponse> {
    return this.iterate(
      (signal) => this.parts.sdk.sendMessageStream(textRequest(text, o), { signal }),
      o.idleTimeoutMs,
      'the stream',
    );
  }

  /** GetTask; `historyLength` trims the returned history (0 = none). */
  getTask(id: string, o: { historyLength?: number } = {}): Promise<Task> {
    return this.call(() =>
      this.parts.sdk.getTask({ id, tenant: '', historyLength: o.historyLength }),
    );
  }

  /** CancelTask. The SDK's TaskNotCancelableError when the task already finished otherwise. */
  cancel(id: string): Promise<Task> {
    return this.call(() => this.parts.sdk.cancelTask({ id, tenant: '', metadata: {} }));
  }

  /** SubscribeToTask (v0.3 `tasks/resubscribe`): the current task, then live events (idle bound as `stream`). */
  subscribe(id: string, o: { idleTimeoutMs?: number } = {}): AsyncGenerator<StreamResponse> {
    return this.iterate(
      (signal) => this.parts.sdk.resubscribeTask({ id, tenant: '' }, { signal }),
      o.idleTimeoutMs,
      `the stream of task ${id}`,
    );
  }

  /**
   * ListTasks.
   * @throws {A2AClientError} `UNSUPPORTED` on a JSON-RPC 0.3 interface (0.3 has no tasks/list).
   */
  listTasks(o: ListTasksOptions = {}): Promise<ListTasksResponse> {
    if (this.parts.choice.chosen.spoken === 'JSONRPC 0.3') {
      return Promise.reject(
        new A2AClientError(
          A2AClientErrorCode.Unsupported,
          'ListTasks is not part of A2A 0.3 (no tasks/list); this agent was reached over JSON-RPC 0.3',
        ),
      );
    }
    const req = {
      tenant: '',
      contextId: o.contextId ?? '',
      status: o.status
        ? taskStateFromJSON(`TASK_STATE_${o.status.toUpperCase().replace(/-/g, '_')}`)
        : 0,
      pageSize: o.pageSize,
      pageToken: o.pageToken ?? '',
      historyLength: o.historyLength,
      statusTimestampAfter: undefined,
      includeArtifacts: o.includeArtifacts,
    };
    return this.call(() => this.parts.sdk.listTasks(req));
  }

  /**
   * GetExtendedAgentCard (authenticated card).
   * @throws {A2AClientError} `UNSUPPORTED` when the card does not advertise
   *   `capabilities.extendedAgentCard` (unless `force`).
   */
  getExtendedCard(o: { force?: boolean } = {}): Promise<AgentCard> {
    if (!o.force && !this.parts.sdkCard.capabilities?.extendedAgentCard) {
      return Promise.reject(
        new A2AClientError(
          A2AClientErrorCode.Unsupported,
          'the card does not advertise capabilities.extendedAgentCard',
        ),
      );
    }
    return this.call(() => this.parts.sdk.transport.getExtendedAgentCard({ tenant: '' }));
  }

  /** Releases sockets held for mutual TLS. */
  close(): Promise<void> {
    return this.parts.base.close();
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw toClientError(err, this.parts.choice.chosen.spoken, this.parts.timeoutMs);
    }
  }

  private async *iterate(
    open: (signal: AbortSignal) => AsyncGenerator<StreamResponse>,
    idleTimeoutMs = DEFAULT_STREAM_IDLE_MS,
    what: string,
  ): AsyncGenerator<StreamResponse> {
    try {
      yield* withIdleTimeout(open, idleTimeoutMs, what);
    } catch (err) {
      throw toClientError(err, this.parts.choice.chosen.spoken, this.parts.timeoutMs);
    }
  }
}
