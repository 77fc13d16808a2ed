// The echo AgentExecutor of the bench's reference target (scripts/bench-express-server.mjs), shared
// with scripts/bench-sdk-core.mjs so both time the same agent. Dev tool, not a test.
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent } from '@a2a-js/sdk/server';

/** A text Part in the SDK's in-memory shape. */
export const text = (value) => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

/**
 * One echo turn: publishes the Task (SUBMITTED) when new, then COMPLETED with an echo of the
 * user's text. Shared by the SDK executor below and the embedded skill of bench-echo-server.mjs.
 */
export function publishEcho(ctx, bus) {
  const { taskId, contextId, userMessage } = ctx;
  if (!ctx.task) {
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_SUBMITTED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        artifacts: [],
        history: [userMessage],
        metadata: {},
      }),
    );
  }
  const said = userMessage.parts
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('\n');
  const reply = {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [text(`echo: ${said}`)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  bus.publish(
    AgentEvent.statusUpdate({
      taskId,
      contextId,
      status: {
        state: TaskState.TASK_STATE_COMPLETED,
        message: reply,
        timestamp: new Date().toISOString(),
      },
      metadata: undefined,
    }),
  );
}

/** Publishes the Task (SUBMITTED), then COMPLETED with an echo of the user's text. */
export const echoExecutor = {
  async execute(ctx, bus) {
    publishEcho(ctx, bus);
    bus.finished();
  },
  async cancelTask(taskId, bus) {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: {
          state: TaskState.TASK_STATE_CANCELED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        metadata: undefined,
      }),
    );
    bus.finished();
  },
};
