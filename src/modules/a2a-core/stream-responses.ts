import type { StreamResponse } from '@a2a-js/sdk';
import type { AgentExecutionEvent } from '@a2a-js/sdk/server';

/** An execution event as the `StreamResponse` a stream or subscription sends for it. */
export function toStreamResponse(event: AgentExecutionEvent): StreamResponse {
  switch (event.kind) {
    case 'task':
      return { payload: { $case: 'task', value: event.data } };
    case 'message':
      return { payload: { $case: 'message', value: event.data } };
    case 'statusUpdate':
      return { payload: { $case: 'statusUpdate', value: event.data } };
    case 'artifactUpdate':
      return { payload: { $case: 'artifactUpdate', value: event.data } };
  }
}
