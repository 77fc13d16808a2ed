import { RequestMalformedError } from '@a2a-js/sdk/errors';

/** A2A 1.0 `Part` content members (proto JSON names of the `content` oneof). */
const PART_CONTENT = ['text', 'raw', 'url', 'data'] as const;
/** Content members whose JSON value must be a string (`raw` is base64 bytes). */
const STRING_CONTENT = new Set<string>(['text', 'raw', 'url']);

/** JSON-RPC 1.0 methods whose params carry a client `message` (HTTP+JSON: `message:send`/`:stream`). */
export const MESSAGE_METHODS = new Set(['SendMessage', 'SendStreamingMessage']);

/**
 * Checks the JSON shape of a client A2A 1.0 `Message` before the SDK's `fromJSON` decodes it,
 * so shapes the decoder would crash on (a `null` or scalar part, `raw: 5`) are invalid params
 * instead of internal errors. The one place for part-shape rules: checks after decoding (no
 * content, unknown skill) stay in `SuperqodeRequestHandler`; a new JSON-level rule goes here.
 * Absent members are left to the handler ("message is required", "parts must not be empty").
 * @param message - `params.message` (JSON-RPC) or the body's `message` (HTTP+JSON), as parsed.
 * @throws {RequestMalformedError} (-32602 / HTTP 400) naming the offending member.
 * @see A2A specification 1.0.1 §4.1.4 Message, §4.1.6 Part.
 */
export function assertMessageShape(message: unknown): void {
  if (message === undefined || message === null) return;
  if (!isObject(message)) throw new RequestMalformedError('message must be an object');
  assertMessageMembers(message);
  const parts = message.parts;
  if (parts === undefined || parts === null) return;
  if (!Array.isArray(parts)) throw new RequestMalformedError('message.parts must be an array');
  parts.forEach((part, i) => assertPartShape(part, `message.parts[${i}]`));
}

/**
 * Checks one part's JSON shape: an object with one content member of the right JSON type.
 * @param path - Where the part sits, for the error message (`message.parts[0]`).
 * @throws {RequestMalformedError} Not an object, no content member, or a content member of the wrong type.
 */
export function assertPartShape(part: unknown, path: string): void {
  if (!isObject(part)) throw new RequestMalformedError(`${path} must be an object`);
  const present = PART_CONTENT.filter((k) => part[k] !== undefined);
  if (present.length === 0) {
    throw new RequestMalformedError(
      `${path} has no content: expected one of text, raw, url or data`,
    );
  }
  for (const k of present) {
    if (STRING_CONTENT.has(k) && typeof part[k] !== 'string') {
      throw new RequestMalformedError(
        `${path}.${k} must be a string${k === 'raw' ? ' (base64)' : ''}`,
      );
    }
  }
  if (part.metadata !== undefined && part.metadata !== null && !isObject(part.metadata)) {
    throw new RequestMalformedError(`${path}.metadata must be an object`);
  }
}

/**
 * Checks a SendMessage request's JSON shape (JSON-RPC `params`, HTTP+JSON body): the message as in
 * {@link assertMessageShape}, and `configuration` and `metadata`, which the SDK's decoder would
 * otherwise drop or coerce silently (`acceptedOutputModes: "text/plain"` read as "anything").
 * @param params - The parsed `params` / body; a non-object is left to the handler.
 * @throws {RequestMalformedError} (-32602 / HTTP 400) naming the offending member.
 * @see A2A specification 1.0.1 §3.2.1 SendMessageRequest, §3.2.2 SendMessageConfiguration.
 */
export function assertSendRequestShape(params: unknown): void {
  if (!isObject(params)) return;
  assertMessageShape(params.message);
  assertSendOptions(params);
}

/**
 * {@link assertSendRequestShape} for A2A 0.3 `message/send` / `message/stream` params: the same
 * member types (0.3 names them alike), then {@link assertLegacyMessageShape} for the parts.
 * `contextId: {}` made the SDK's translation throw (-32603), `acceptedOutputModes: "image/png"`
 * was spread into characters.
 * @throws {RequestMalformedError} (-32602) naming the offending member.
 * @see A2A specification 0.3 §7.1 message/send, §6.4 Message.
 */
export function assertLegacySendRequestShape(params: unknown): void {
  if (!isObject(params)) return;
  if (isObject(params.message)) assertMessageMembers(params.message);
  assertSendOptions(params);
  assertLegacyMessageShape(params.message);
}

/** `metadata` and `configuration` of a send request (the same members in 1.0 and 0.3). */
function assertSendOptions(params: Record<string, unknown>): void {
  assertOptional(params.metadata, 'metadata', 'an object', isObject);
  const configuration = params.configuration;
  assertOptional(configuration, 'configuration', 'an object', isObject);
  if (!isObject(configuration)) return;
  assertOptional(
    configuration.acceptedOutputModes,
    'configuration.acceptedOutputModes',
    'an array of strings',
    isStringArray,
  );
  assertOptional(
    configuration.historyLength,
    'configuration.historyLength',
    'a non-negative integer',
    isCount,
  );
  assertOptional(
    configuration.returnImmediately,
    'configuration.returnImmediately',
    'a boolean',
    isBoolean,
  );
}

/** JSON-RPC 1.0 methods on one task (`params.id`) or on the task list. */
export const TASK_METHODS = new Set(['GetTask', 'CancelTask', 'SubscribeToTask', 'ListTasks']);
/** JSON-RPC 0.3 methods on one task (`params.id`), checked by {@link assertTaskRequestShape} too. */
export const LEGACY_TASK_METHODS = new Set(['tasks/get', 'tasks/cancel', 'tasks/resubscribe']);

/**
 * Checks a JSON-RPC GetTask / CancelTask / SubscribeToTask / ListTasks request as HTTP+JSON
 * checks its path and query: the task `id` a string (not `5` or `{}` coerced to "[object Object]"),
 * `historyLength` a non-negative integer (not `-1` read as "no history", nor `"2"` or `1.5`).
 * An absent id is left to the handler ("Task ID is required").
 * @throws {RequestMalformedError} (-32602) naming the member.
 * @see A2A specification 1.0.1 §3.1.3-§3.1.6.
 */
export function assertTaskRequestShape(params: unknown): void {
  if (!isObject(params)) return;
  assertOptional(params.id, 'id', 'a string', isString);
  assertOptional(params.historyLength, 'historyLength', 'a non-negative integer', isCount);
}

/** JSON-RPC 0.3 methods whose params carry a client `message`. */
export const LEGACY_MESSAGE_METHODS = new Set(['message/send', 'message/stream']);

/**
 * {@link assertMessageShape} for an A2A 0.3 `Message` (parts discriminated by `kind`), before the
 * SDK's 0.3 → 1.0 translation, which crashes on a `file` part without a file object or with
 * non-string `bytes`/`uri`, and hands non-string `text` to the agent.
 * @throws {RequestMalformedError} (-32602) naming the offending member.
 * @see A2A specification 0.3 §6.5 Part.
 */
export function assertLegacyMessageShape(message: unknown): void {
  if (!isObject(message) || !Array.isArray(message.parts)) return; // the SDK names these
  message.parts.forEach((part: unknown, i) => {
    const path = `message.parts[${i}]`;
    if (!isObject(part)) return; // the SDK: "Each part must be an object"
    if (part.kind === 'text' && typeof part.text !== 'string')
      throw new RequestMalformedError(`${path}.text must be a string`);
    if (part.kind !== 'file') return;
    const file = part.file;
    if (!isObject(file))
      throw new RequestMalformedError(`${path}.file must be an object with bytes or uri`);
    const content = ['bytes', 'uri'].filter((k) => file[k] !== undefined);
    if (content.length === 0 || content.some((k) => typeof file[k] !== 'string')) {
      throw new RequestMalformedError(`${path}.file needs bytes (base64) or uri, as a string`);
    }
  });
}

/** Message members of string / string-array / object type, checked before the SDK coerces them. */
function assertMessageMembers(message: Record<string, unknown>): void {
  for (const k of MESSAGE_STRING_MEMBERS)
    assertOptional(message[k], `message.${k}`, 'a string', isString);
  for (const k of ['referenceTaskIds', 'extensions']) {
    assertOptional(message[k], `message.${k}`, 'an array of strings', isStringArray);
  }
  assertOptional(message.metadata, 'message.metadata', 'an object', isObject);
}

/** Message members the A2A 1.0 JSON mapping gives as strings (`contextId: {}` is not coerced to "[object Object]"). */
const MESSAGE_STRING_MEMBERS = ['messageId', 'contextId', 'taskId'] as const;

/** Throws unless `value` is absent (`undefined`/`null`) or passes `test`. */
function assertOptional(
  value: unknown,
  path: string,
  expected: string,
  test: (v: unknown) => boolean,
): void {
  if (value !== undefined && value !== null && !test(value)) {
    throw new RequestMalformedError(`${path} must be ${expected}`);
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
const isStringArray = (v: unknown): boolean => Array.isArray(v) && v.every(isString);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
