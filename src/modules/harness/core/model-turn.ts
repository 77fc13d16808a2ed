import type { LanguageModelUsage, ModelMessage, TextStreamPart, ToolSet } from 'ai';
import type { HarnessUsage } from '../protocol/harness-events';
import { aiSdk } from '../providers/ai-sdk.loader';
import type { ResolvedModel } from '../providers/harness-model.resolver';
import type { HarnessTool } from '../tools/harness-tool';
import type { RunRecorder } from './run-recorder';
import type { RunSettings } from './run-settings';
import type { ModelToolCall } from './tool-calls';
import { DeltaScrubber } from './secret-scrubber';

/** What a model call needs from the run. */
export interface ModelTurnScope {
  recorder: RunRecorder;
  settings: RunSettings;
  model: ResolvedModel;
  signal: AbortSignal;
  /** Retries of a failed model request (AI SDK `maxRetries`). */
  maxRetries: number;
}

/** The outcome of one model call. */
export interface ModelTurnResult {
  text: string;
  toolCalls: ModelToolCall[];
  finishReason: string;
  usage: HarnessUsage;
  /** Messages to append to the conversation (assistant text and tool calls). */
  messages: ModelMessage[];
}

/** Token counts in the event format. */
export function toUsage(usage: LanguageModelUsage | undefined): HarnessUsage {
  return {
    input_tokens: usage?.inputTokens ?? null,
    output_tokens: usage?.outputTokens ?? null,
    total_tokens: usage?.totalTokens ?? null,
  };
}

/** Tool definitions for the model, without `execute`: the run loop runs tools itself. */
export function toolSet(tools: HarnessTool[]): ToolSet {
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      aiSdk.core().tool({ description: t.description, inputSchema: t.inputSchema }),
    ]),
  );
}

/**
 * Streams text deltas as `message.delta` events (scrubbed across chunk boundaries) and collects
 * the tool calls.
 */
async function consume(
  stream: AsyncIterable<TextStreamPart<ToolSet>>,
  scope: ModelTurnScope,
): Promise<{ text: string; toolCalls: ModelToolCall[] }> {
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  const deltas = new DeltaScrubber(scope.recorder.scrubber);
  const release = async (chunk: string) => {
    if (chunk) await scope.recorder.emit('message.delta', { text: chunk });
  };
  for await (const part of stream) {
    if (part.type === 'text-delta' && part.text) {
      text += part.text;
      await release(deltas.push(part.text));
    } else if (part.type === 'tool-call') {
      const error = part.invalid
        ? String((part.error as Error | undefined)?.message ?? part.error)
        : undefined;
      toolCalls.push({
        tool_call_id: part.toolCallId,
        tool_name: part.toolName,
        input: part.input,
        error,
      });
    } else if (part.type === 'error') {
      throw part.error;
    } else if (part.type === 'abort') {
      break;
    }
  }
  await release(deltas.flush());
  scope.signal.throwIfAborted();
  return { text, toolCalls };
}

/** Starts the AI SDK stream of one model call (one step; tools without `execute`). */
function startStream(messages: ModelMessage[], scope: ModelTurnScope) {
  const { settings } = scope;
  return aiSdk.core().streamText({
    model: scope.model.model,
    system: settings.system,
    messages,
    tools: settings.tools.length > 0 ? toolSet(settings.tools) : undefined,
    temperature: settings.temperature,
    maxRetries: scope.maxRetries,
    abortSignal: scope.signal,
    // Errors arrive as `error` stream parts (thrown by consume); the default handler would print.
    onError: () => undefined,
  });
}

/**
 * One model call (AI SDK `streamText`, a single step): `model.requested`, a `message.delta`
 * per text piece, then `model.completed` with the messages the call adds to the conversation.
 * Tool calls are returned, not executed.
 * @param messages - The conversation so far (not modified).
 * @param iteration - 1-based model call number within the run.
 * @throws {unknown} The provider's error (APICallError, RetryError…), or the abort reason.
 * @see https://ai-sdk.dev/docs/reference/ai-sdk-core/stream-text
 */
export async function runModelTurn(
  messages: ModelMessage[],
  iteration: number,
  scope: ModelTurnScope,
): Promise<ModelTurnResult> {
  const { provider, model: modelId } = scope.model.selection;
  const tools = scope.settings.tools.map((t) => t.name);
  await scope.recorder.emit('model.requested', { iteration, provider, model: modelId, tools });
  const result = startStream(messages, scope);
  const { text, toolCalls } = await consume(result.fullStream, scope);
  const [response, finishReason, usage] = await Promise.all([
    result.response,
    result.finishReason,
    result.usage,
  ]);
  // The SDK answers unparsable tool calls itself; the run loop records its own result instead.
  const added = response.messages.filter((m) => m.role !== 'tool');
  const turn = { text, toolCalls, finishReason, usage: toUsage(usage), messages: added };
  await scope.recorder.emit('model.completed', {
    iteration,
    finish_reason: finishReason,
    usage: turn.usage,
    text,
    tool_calls: toolCalls.map(({ tool_call_id, tool_name, input }) => ({
      tool_call_id,
      tool_name,
      input,
    })),
    messages: added,
  });
  return turn;
}
