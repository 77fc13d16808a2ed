import { SendMessageResponse } from '@a2a-js/sdk';
import type { Message, Task } from '@a2a-js/sdk';
import { taskJsonText } from '../tasks/task.entity';

/**
 * The JSON text of a SendMessage result, the same bytes as
 * `JSON.stringify(SendMessageResponse.toJSON(...))` (`{"task":…}` or `{"message":…}`), for the
 * JSON-RPC `result` and the REST body alike. A task the store has just saved is not converted
 * again: its text is joined from the row the save encoded ({@link taskJsonText}; issue #14, the
 * 6 KB shortlist task was converted twice per request).
 * @param result - What `A2ARequestHandler.sendMessage` resolved with.
 * @see A2A specification §3.1.1 SendMessage; SDK `SendMessageResponse.toJSON`.
 */
export function sendMessageResponseText(result: Message | Task): string {
  if ('messageId' in result) {
    return JSON.stringify(
      SendMessageResponse.toJSON({ payload: { $case: 'message', value: result } }),
    );
  }
  return `{"task":${taskJsonText(result)}}`;
}
