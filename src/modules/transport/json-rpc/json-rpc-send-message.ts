import type { Logger } from '@nestjs/common';
import { HTTP_EXTENSION_HEADER, SendMessageRequest } from '@a2a-js/sdk';
import { A2A_ERROR_CODE, RequestMalformedError } from '@a2a-js/sdk/errors';
import { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { renderJsonRpcError } from '../../../common/errors/a2a-error-render';
import { takeSkillAccessRefusal } from '../../skills/skill-access';
import { sendMessageResponseText } from '../send-message-response';
import type { JsonRpcId } from './json-rpc-envelope';

/** A reply as text: HTTP status, response headers (content type included) and body. */
export interface TextReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A JSON-RPC 2.0 response object. */
export type JsonRpcEnvelope = {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result?: unknown;
  error?: { code: number; message: string };
};

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The reply to an A2A 1.0 JSON-RPC `SendMessage` whose envelope is valid, answered without the
 * SDK transport handler (issue #14): the handler's task is written from the row text its save
 * just encoded ({@link sendMessageResponseText}), not converted by `Task.toJSON` and stringified
 * again. Otherwise as `JsonRpcTransportHandler` handles this method: params must be an object
 * with no empty member name (-32602 "Invalid method parameters."), a truthy `params.tenant` sets
 * the call's tenant, errors are mapped by `JsonRpcTransportHandler.mapToJSONRPCError`; a
 * skill-access refusal keeps its HTTP status (401/403). Never rejects.
 * Used by the JSON-RPC controller and by SendMessage served before routing.
 * @param logger - Where an internal error (-32603, HTTP 500) is logged; its text never leaves.
 * @see SDK `JsonRpcTransportHandler.handle` (`@a2a-js/sdk/server`), case "SendMessage".
 */
export async function jsonRpcSendMessageReply(
  handler: A2ARequestHandler,
  id: JsonRpcId,
  params: unknown,
  context: ServerCallContext,
  logger: Logger,
): Promise<TextReply> {
  let text: string;
  try {
    if (!paramsAreValid(params)) throw new RequestMalformedError('Invalid method parameters.');
    const tenant = params.tenant;
    if (tenant) context.setTenant(tenant as string);
    const result = await handler.sendMessage(SendMessageRequest.fromJSON(params), context);
    text = sendMessageResponseText(result);
  } catch (err) {
    const refusal = takeSkillAccessRefusal(context);
    if (refusal) return jsonRpcErrorReply(id, refusal, false);
    const error = JsonRpcTransportHandler.mapToJSONRPCError(err);
    return jsonRpcEnvelopeReply({ jsonrpc: '2.0', id, error }, extensionHeaders(context), logger);
  }
  const refusal = takeSkillAccessRefusal(context);
  if (refusal) return jsonRpcErrorReply(id, refusal, false);
  return {
    status: 200,
    headers: { ...extensionHeaders(context), 'content-type': JSON_CONTENT_TYPE },
    body: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${text}}`,
  };
}

/**
 * An envelope as a reply: HTTP 200, except an internal error (-32603), which is logged and
 * answered as HTTP 500 with the generic message (the SDK copies internal messages into it).
 */
export function jsonRpcEnvelopeReply(
  envelope: JsonRpcEnvelope,
  headers: Record<string, string>,
  logger: Logger,
): TextReply {
  let status = 200;
  if (envelope.error?.code === A2A_ERROR_CODE.INTERNAL_ERROR) {
    logger.error(`Internal error answered as -32603: ${envelope.error.message}`);
    envelope = {
      ...envelope,
      error: { code: A2A_ERROR_CODE.INTERNAL_ERROR, message: 'Internal error.' },
    };
    status = 500;
  }
  return {
    status,
    headers: { ...headers, 'content-type': JSON_CONTENT_TYPE },
    body: JSON.stringify(envelope),
  };
}

/** An error as a JSON-RPC reply: status, headers and body from {@link renderJsonRpcError}. */
export function jsonRpcErrorReply(id: JsonRpcId, err: unknown, legacy: boolean): TextReply {
  const rendered = renderJsonRpcError(err, legacy);
  return {
    status: rendered.status,
    headers: { ...rendered.headers, 'content-type': JSON_CONTENT_TYPE },
    body: JSON.stringify({ jsonrpc: '2.0', id, error: rendered.body }),
  };
}

/** The extension headers of a reply: the extensions the call activated, if any. */
export function extensionHeaders(
  context: ServerCallContext,
  legacy = false,
): Record<string, string> {
  const active = context.activatedExtensions;
  if (!active || active.length === 0) return {};
  return { [legacy ? 'X-A2A-Extensions' : HTTP_EXTENSION_HEADER]: Array.from(active).join(', ') };
}

/** The SDK transport's check of `params`: an object (not an array) with no empty member name. */
function paramsAreValid(params: unknown): params is Record<string, unknown> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  return !Object.keys(params).includes('');
}
