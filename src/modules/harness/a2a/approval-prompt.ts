import type { Message } from '@a2a-js/sdk';
import type { HarnessApprovalDecision, HarnessEvent } from '../protocol/harness-events';

/** Longest preview of a write or edit shown in an approval question, in lines and in bytes. */
export const APPROVAL_PREVIEW_LINES = 20;
export const APPROVAL_PREVIEW_BYTES = 2_000;

/** Words accepted as a decision (whole reply, case and surrounding spaces ignored). */
export const APPROVE_WORDS = ['approve', 'yes', 'y'] as const;
export const DENY_WORDS = ['deny', 'no', 'n'] as const;

/** How to answer, appended to every approval question and repeated when a reply is not understood. */
export const APPROVAL_HOW_TO =
  'Reply exactly "approve" (or "yes", "y") to allow it or "deny" (or "no", "n") to refuse it; ' +
  'a data part {"decision": "approve"} or {"decision": "deny"} works too.';

type ApprovalCall = Extract<HarnessEvent, { type: 'approval.requested' }>['data'];

/**
 * The INPUT_REQUIRED question for a tool call that waits for approval: what it will do and to
 * what, with a bounded preview (write_file: the content; edit_file: the replaced and new text).
 * e.g. "write_file wants to write hello.txt (27 bytes):" then the first lines of the content.
 */
export function approvalQuestion(call: ApprovalCall): string {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  let head: string;
  let preview = '';
  if (call.tool_name === 'write_file') {
    const content = text(input.content);
    head = `write_file wants to write ${call.target} (${Buffer.byteLength(content, 'utf8')} bytes)`;
    preview = fenced(bounded(content));
  } else if (call.tool_name === 'edit_file') {
    head = `edit_file wants to edit ${call.target}${input.replace_all === true ? ' (every occurrence)' : ''}`;
    const diff = [
      ...lines(text(input.old_string), '-'),
      ...lines(text(input.new_string), '+'),
    ].join('\n');
    preview = fenced(bounded(diff), 'diff');
  } else if (call.tool_name === 'bash') {
    head = `bash wants to run \`${call.target}\``;
  } else {
    head = `${call.tool_name} wants to use ${call.target}`;
  }
  return `Approval needed: ${head}.${preview ? `\n${preview}` : ''}\n${APPROVAL_HOW_TO}`;
}

/**
 * The decision a reply carries: a text part that is exactly one of {@link APPROVE_WORDS} or
 * {@link DENY_WORDS}, or a data part `{"decision": "approve" | "deny"}`; else undefined (the
 * caller is asked again: "yes please" is not an approval).
 */
export function decisionOf(message: Message): HarnessApprovalDecision | undefined {
  for (const p of message.parts) {
    const c = p.content;
    const raw =
      c?.$case === 'data'
        ? (c.value as { decision?: unknown })?.decision
        : c?.$case === 'text'
          ? c.value
          : undefined;
    const word = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
    if ((APPROVE_WORDS as readonly string[]).includes(word)) return 'approve';
    if ((DENY_WORDS as readonly string[]).includes(word)) return 'deny';
  }
  return undefined;
}

function lines(text: string, sign: string): string[] {
  return text === ''
    ? []
    : text
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => `${sign}${l}`);
}

/** At most {@link APPROVAL_PREVIEW_LINES} lines and {@link APPROVAL_PREVIEW_BYTES} bytes, saying what was left out. */
function bounded(text: string): string {
  const all = text.replace(/\n$/, '').split('\n');
  let kept = all.slice(0, APPROVAL_PREVIEW_LINES).join('\n');
  let left =
    all.length > APPROVAL_PREVIEW_LINES
      ? `${all.length - APPROVAL_PREVIEW_LINES} more line(s)`
      : '';
  if (Buffer.byteLength(kept, 'utf8') > APPROVAL_PREVIEW_BYTES) {
    kept = Buffer.from(kept, 'utf8')
      .subarray(0, APPROVAL_PREVIEW_BYTES)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    left = `everything after ${APPROVAL_PREVIEW_BYTES} bytes`;
  }
  return left ? `${kept}\n… (preview: ${left} not shown)` : kept;
}

function fenced(text: string, lang = ''): string {
  return text === '' ? '' : `\`\`\`${lang}\n${text.replace(/```/g, '`\u200b``')}\n\`\`\``;
}
