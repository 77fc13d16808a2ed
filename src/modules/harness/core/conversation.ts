import type { ModelMessage, ToolResultPart } from 'ai';
import { aiSdk } from '../providers/ai-sdk.loader';
import type {
  HarnessEvent,
  HarnessEventDataMap,
  HarnessEventType,
} from '../protocol/harness-events';

/** Event types a conversation is rebuilt from (everything else is not sent to the model). */
export const CONVERSATION_EVENT_TYPES: HarnessEventType[] = [
  'run.started',
  'model.completed',
  'tool.completed',
  'approval.requested',
  'approval.resolved',
];

/** Tool result sent for a call that never ran because its run ended first. */
export const NOT_EXECUTED_OUTPUT = 'not executed: the run ended before this tool call ran';

type ToolCompleted = HarnessEventDataMap['tool.completed'];

/** A tool result part for the model: text when the tool succeeded, error text otherwise. */
export function toolResultPart(result: ToolCompleted): ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: result.tool_call_id,
    toolName: result.tool_name,
    output: { type: result.ok ? 'text' : 'error-text', value: result.output },
  };
}

/** Appends tool results, merging into the last message when it already is a tool message. */
export function appendToolResults(messages: ModelMessage[], parts: ToolResultPart[]): void {
  if (parts.length === 0) return;
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') last.content.push(...parts);
  else messages.push({ role: 'tool', content: parts });
}

/** Tool calls of assistant messages that have no result yet, in order. */
function danglingToolCalls(messages: ModelMessage[]): { id: string; name: string }[] {
  const answered = new Set<string>();
  const calls: { id: string; name: string }[] = [];
  for (const message of messages) {
    if (message.role === 'tool') {
      for (const part of message.content)
        if (part.type === 'tool-result') answered.add(part.toolCallId);
    } else if (message.role === 'assistant' && Array.isArray(message.content)) {
      for (const part of message.content) {
        if (part.type === 'tool-call') calls.push({ id: part.toolCallId, name: part.toolName });
      }
    }
  }
  return calls.filter((call) => !answered.has(call.id));
}

/** Answers every unanswered tool call with {@link NOT_EXECUTED_OUTPUT}, so providers accept it. */
function closeDanglingCalls(messages: ModelMessage[]): void {
  const parts = danglingToolCalls(messages).map((call) =>
    toolResultPart({
      tool_call_id: call.id,
      tool_name: call.name,
      ok: false,
      output: NOT_EXECUTED_OUTPUT,
      duration_ms: 0,
      refused: null,
    }),
  );
  appendToolResults(messages, parts);
}

/** Stored model messages that still satisfy the AI SDK schema (others are dropped). */
function validMessages(raw: unknown[]): ModelMessage[] {
  return raw.flatMap((m) => {
    const parsed = aiSdk.core().modelMessageSchema.safeParse(m);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The model conversation of a session, rebuilt from its ledger events (oldest run first):
 * each prompt, the messages every model call added, and every tool result. Calls left without
 * a result by an ended run are answered with {@link NOT_EXECUTED_OUTPUT}; those of `openRunId`
 * (a run being resumed) stay open for the caller to answer.
 * @param events - Events of {@link CONVERSATION_EVENT_TYPES}, in run then sequence order.
 */
export function conversationFrom(events: HarnessEvent[], openRunId?: string): ModelMessage[] {
  const messages: ModelMessage[] = [];
  let runId: string | null = null;
  for (const event of events) {
    if (event.run_id !== runId) {
      if (runId !== null && runId !== openRunId) closeDanglingCalls(messages);
      runId = event.run_id;
    }
    if (event.type === 'run.started') messages.push({ role: 'user', content: event.data.prompt });
    if (event.type === 'model.completed') messages.push(...validMessages(event.data.messages));
    if (event.type === 'tool.completed') appendToolResults(messages, [toolResultPart(event.data)]);
  }
  if (runId !== null && runId !== openRunId) closeDanglingCalls(messages);
  return messages;
}

/** Approval requests of a run that have no decision yet, in request order. */
export function pendingApprovals(
  runEvents: HarnessEvent[],
): HarnessEventDataMap['approval.requested'][] {
  const resolved = new Set<string>();
  for (const e of runEvents) if (e.type === 'approval.resolved') resolved.add(e.data.tool_call_id);
  return runEvents.flatMap((e) =>
    e.type === 'approval.requested' && !resolved.has(e.data.tool_call_id) ? [e.data] : [],
  );
}

/** Model calls a run has made so far (its iteration count). */
export function iterationsOf(runEvents: HarnessEvent[]): number {
  return runEvents.filter((e) => e.type === 'model.completed').length;
}
