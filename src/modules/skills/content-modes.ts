import type { AgentSkill, Message, Part } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { PartContentTypeNotSupportedError } from '../../common/errors/part-content-type.error';

/** The members of a 1.0 Part of which exactly one holds its content (A2A §4.1.6 `oneof`). */
export const PART_CONTENT_MEMBERS = ['text', 'raw', 'url', 'data'] as const;

/**
 * Media type a Part is read as: `text/plain` for text, `application/json` for data, the part's
 * `mediaType` for inline bytes and URLs (`application/octet-stream` when none is given).
 */
export function partMode(part: Part): string {
  switch (part.content?.$case) {
    case 'text':
      return 'text/plain';
    case 'data':
      return 'application/json';
    default:
      return part.mediaType || 'application/octet-stream';
  }
}

/**
 * Whether a media type is within a list of modes: exact (case-insensitive, parameters ignored),
 * `type/*` ranges, or `*\/*`.
 */
export function modeAccepted(mode: string, modes: readonly string[]): boolean {
  const m = mode.split(';')[0].trim().toLowerCase();
  return modes.some((raw) => {
    const accepted = raw.split(';')[0].trim().toLowerCase();
    if (accepted === '*/*' || accepted === m) return true;
    return accepted.endsWith('/*') && m.startsWith(accepted.slice(0, -1));
  });
}

/**
 * Whether a skill can read a part: text and data parts by their mode; inline bytes when their
 * media type is accepted, and any `text/*` bytes when the skill reads `text/plain` (they are read
 * as UTF-8 text, see `messageText`); URLs never (no skill fetches them).
 */
function readable(part: Part, inputModes: readonly string[]): boolean {
  if (part.content?.$case === 'url') return false;
  const mode = partMode(part);
  if (modeAccepted(mode, inputModes)) return true;
  return (
    part.content?.$case === 'raw' && /^text\//i.test(mode) && modeAccepted('text/plain', inputModes)
  );
}

/**
 * Checks a message and the caller's accepted output modes against the routed skill's card modes.
 * @param acceptedOutputModes - `configuration.acceptedOutputModes`; empty accepts anything.
 * @throws {PartContentTypeNotSupportedError} A part the skill cannot read (image, URL, raw bytes of a
 *   type it does not take), or no output mode of the skill is accepted; the message names the
 *   skill's modes. JSON-RPC -32005, HTTP+JSON 400 (A2A §5.4).
 * @see A2A specification §4.4.5 AgentSkill `inputModes`/`outputModes`, §3.2.2 acceptedOutputModes.
 */
export function checkContentModes(
  skill: AgentSkill,
  message: Message,
  acceptedOutputModes: readonly string[],
): void {
  const bad = message.parts.findIndex((p) => !readable(p, skill.inputModes));
  if (bad >= 0) {
    const part = message.parts[bad];
    const what = part.content?.$case === 'url' ? `a URL (${partMode(part)})` : partMode(part);
    throw new PartContentTypeNotSupportedError(
      `message.parts[${bad}] is ${what}, which skill '${skill.id}' cannot read; it accepts ` +
        `${skill.inputModes.join(', ')} (text parts, and text/* files with inline bytes).`,
    );
  }
  if (
    acceptedOutputModes.length > 0 &&
    !skill.outputModes.some((m) => acceptsOutput(m, acceptedOutputModes))
  ) {
    throw new PartContentTypeNotSupportedError(
      `acceptedOutputModes ${acceptedOutputModes.join(', ')} include none of skill '${skill.id}''s ` +
        `output modes: ${skill.outputModes.join(', ')}.`,
    );
  }
}

/**
 * Whether the caller accepts an output mode (`acceptedOutputModes` empty = anything).
 * @param mode - One of the skill's output modes, e.g. `application/json`.
 */
export function acceptsOutput(mode: string, acceptedOutputModes: readonly string[]): boolean {
  return acceptedOutputModes.length === 0 || modeAccepted(mode, acceptedOutputModes);
}

/**
 * Rejects a raw (proto-JSON) 1.0 message whose part sets more than one content member
 * (`{"text": "a", "url": "b"}`): the SDK's decoder would silently keep the first.
 * @param rawMessage - `params.message` as received, before decoding.
 * @throws {RequestMalformedError} Invalid params (-32602 / HTTP 400), naming the part and members.
 */
export function rejectAmbiguousParts(rawMessage: unknown): void {
  const parts = (rawMessage as { parts?: unknown } | null | undefined)?.parts;
  if (!Array.isArray(parts)) return;
  parts.forEach((part, i) => {
    if (part === null || typeof part !== 'object') return;
    const set = PART_CONTENT_MEMBERS.filter(
      (k) => (part as Record<string, unknown>)[k] !== undefined,
    );
    if (set.length > 1) {
      throw new RequestMalformedError(
        `message.parts[${i}] sets ${set.join(' and ')}: a part holds exactly one of ${PART_CONTENT_MEMBERS.join(', ')}`,
      );
    }
  });
}
