/**
 * Smoke client: discovers an A2A agent from its base URL, follows the interface the SDK picks
 * from the card, sends one message and prints agent, interface, task id, state and reply.
 * Exit 0 only when the task completed.
 *
 *   npm run example:smoke -- http://127.0.0.1:8000 "which open source harness has approvals and a sandbox?"
 */
import { randomUUID } from 'node:crypto';
import { Role, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import type { Message, Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';

/** What one smoke run saw. */
export interface SmokeResult {
  agent: string;
  interfaceUrl: string;
  protocol: string;
  taskId: string;
  state: string;
  reply: string;
  completed: boolean;
}

/** Discovers `baseUrl`, sends `text`, and reports the outcome (never throws for a failed task). */
export async function runSmoke(baseUrl: string, text: string): Promise<SmokeResult> {
  const client = await new ClientFactory().createFromUrl(baseUrl);
  const card = await client.getAgentCard();
  const message: Message = {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [
      {
        content: { $case: 'text', value: text },
        metadata: undefined,
        filename: '',
        mediaType: 'text/plain',
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  const result = await client.sendMessage({
    tenant: '',
    message,
    configuration: undefined,
    metadata: undefined,
  });
  const iface = card.supportedInterfaces[0];
  const task = 'status' in result ? (result as Task) : undefined;
  const texts = (task?.artifacts ?? [])
    .flatMap((a) => a.parts)
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''));
  return {
    agent: `${card.name} ${card.version}`,
    interfaceUrl: iface?.url ?? baseUrl,
    protocol: `${iface?.protocolBinding} ${client.protocolVersion}`,
    taskId: task?.id ?? '(message reply)',
    state: task?.status ? taskStateToJSON(task.status.state) : 'MESSAGE',
    reply: texts.filter(Boolean).join('\n'),
    completed: task?.status?.state === TaskState.TASK_STATE_COMPLETED,
  };
}

if (require.main === module) {
  const [
    url = 'http://127.0.0.1:8000',
    text = 'Which harness is open source and Apache licensed?',
  ] = process.argv.slice(2);
  runSmoke(url, text)
    .then((r) => {
      process.stdout.write(
        `agent:     ${r.agent}\ninterface: ${r.protocol} at ${r.interfaceUrl}\ntask:      ${r.taskId}\nstate:     ${r.state}\n\n${r.reply}\n`,
      );
      process.exitCode = r.completed ? 0 : 1;
    })
    .catch((err: Error) => {
      process.stderr.write(`smoke failed: ${err.message}\n`);
      process.exitCode = 1;
    });
}
