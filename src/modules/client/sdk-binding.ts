import { randomUUID } from 'node:crypto';
import { Role } from '@a2a-js/sdk';
import type { AgentCard, Message, SendMessageRequest } from '@a2a-js/sdk';
import {
  Client,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  TenantTransportDecorator,
} from '@a2a-js/sdk/client';
import type { Transport } from '@a2a-js/sdk/client';
import { A2AClientError, A2AClientErrorCode } from './client.errors';
import type { InterfaceChoice } from './interface-choice';

/**
 * The card in the SDK's in-memory shape (a v0.3 card translated to v1.0 by the SDK's compat
 * layer, proto-JSON oneofs unwrapped).
 * @throws {A2AClientError} `CARD_INVALID` when the SDK cannot read it (missing required fields).
 * @see @a2a-js/sdk/client DefaultAgentCardResolver.normalizeAgentCard.
 */
export function toSdkCard(card: Record<string, unknown>): AgentCard {
  try {
    return new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }).normalizeAgentCard(
      card,
    );
  } catch (err) {
    throw new A2AClientError(
      A2AClientErrorCode.CardInvalid,
      `the agent card cannot be read: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
}

/**
 * An SDK `Client` bound to exactly the chosen interface: the card handed to the SDK lists only
 * that entry, so the SDK cannot pick another one, and a `0.3` version selects the SDK's v0.3
 * JSON-RPC transport.
 * @param fetchImpl - The bounded, authenticated, traced fetch every call goes through.
 */
export async function bindSdkClient(
  sdkCard: AgentCard,
  choice: InterfaceChoice,
  fetchImpl: typeof fetch,
): Promise<Client> {
  const { url, tenant, spoken } = choice.chosen;
  const [binding, version] = spoken.split(' ');
  const narrowed: AgentCard = {
    ...sdkCard,
    supportedInterfaces: [{ url, protocolBinding: binding, protocolVersion: version, tenant }],
  };
  const factory =
    binding === 'JSONRPC'
      ? new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })
      : new RestTransportFactory({ fetchImpl });
  let transport: Transport = await factory.create(url, narrowed);
  if (tenant) transport = new TenantTransportDecorator(transport, tenant);
  return new Client(transport, narrowed);
}

/** What a user message carries besides its text. */
export interface MessageOptions {
  /** Conversation to continue; '' or absent starts a new one (the agent assigns it). */
  contextId?: string;
  /** Task to continue (e.g. one in `input-required`). */
  taskId?: string;
  /** Return as soon as the task exists instead of waiting for a terminal state. */
  blocking?: boolean;
  /** Messages of history to return with the task. */
  historyLength?: number;
}

/** A SendMessage request with one text part from the user. */
export function textRequest(text: string, o: MessageOptions = {}): SendMessageRequest {
  const message: Message = {
    messageId: randomUUID(),
    contextId: o.contextId ?? '',
    taskId: o.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: 'text', value: text },
        metadata: undefined,
        filename: '',
        mediaType: 'text/plain',
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return {
    tenant: '',
    message,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      historyLength: o.historyLength,
      returnImmediately: o.blocking === false,
    },
    metadata: undefined,
  };
}
