import { Role, TaskState } from '@a2a-js/sdk';
import type { Artifact, Message, Part, TaskStatusUpdateEvent } from '@a2a-js/sdk';

/**
 * Joins the text of a message with newlines: text parts, and files with inline bytes of a
 * `text/*` media type read as UTF-8 (other part kinds are skipped).
 */
export function messageText(message: Message): string {
  return message.parts
    .map((p) => {
      const c = p.content;
      if (c?.$case === 'text') return c.value;
      if (c?.$case === 'raw' && /^text\//i.test(p.mediaType))
        return Buffer.from(c.value).toString('utf8');
      return '';
    })
    .filter((t) => t.length > 0)
    .join('\n');
}

/** A text Part (A2A §4.1.6). */
export function textPart(text: string): Part {
  return {
    content: { $case: 'text', value: text },
    metadata: undefined,
    filename: '',
    mediaType: 'text/plain',
  };
}

/** A structured data Part holding a JSON value (A2A §4.1.6). */
export function dataPart(value: unknown): Part {
  return {
    content: { $case: 'data', value },
    metadata: undefined,
    filename: '',
    mediaType: 'application/json',
  };
}

/** An agent-role Message in a context/task. */
export function agentMessage(args: {
  messageId: string;
  contextId: string;
  taskId: string;
  parts: Part[];
  metadata?: Record<string, unknown>;
}): Message {
  return {
    messageId: args.messageId,
    contextId: args.contextId,
    taskId: args.taskId,
    role: Role.ROLE_AGENT,
    parts: args.parts,
    metadata: args.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** An Artifact (A2A §4.1.7). */
export function artifact(args: {
  artifactId: string;
  name: string;
  parts: Part[];
  description?: string;
}): Artifact {
  return {
    artifactId: args.artifactId,
    name: args.name,
    description: args.description ?? '',
    parts: args.parts,
    metadata: undefined,
    extensions: [],
  };
}

/** A TaskStatusUpdateEvent for `state`, optionally with a status message (A2A §4.2.1). */
export function statusUpdate(args: {
  taskId: string;
  contextId: string;
  state: TaskState;
  timestamp: string;
  message?: Message;
}): TaskStatusUpdateEvent {
  return {
    taskId: args.taskId,
    contextId: args.contextId,
    status: { state: args.state, message: args.message, timestamp: args.timestamp },
    metadata: undefined,
  };
}

/** Terminal task states (A2A §4.1.3): no further updates follow. */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
