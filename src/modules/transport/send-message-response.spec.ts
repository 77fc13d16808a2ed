import { Role, SendMessageResponse, Task, TaskState } from '@a2a-js/sdk';
import { taskJsonText, toTaskEntity } from '../tasks/task.entity';
import { sendMessageResponseText } from './send-message-response';

const SCOPE = { tenant: '', owner: 'alice' };

/** Tasks whose proto-JSON omits or writes each member: ids, empty lists, metadata, raw bytes. */
const TASKS: Record<string, Task> = {
  minimal: Task.fromJSON({ id: 'a', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } }),
  'no context, no status': Task.fromJSON({ id: 'b' }),
  full: Task.fromJSON({
    id: 'd',
    contextId: 'ctx "quoted" \u2028',
    status: {
      state: 'TASK_STATE_COMPLETED',
      timestamp: '2026-12-02T10:00:00.000Z',
      message: { messageId: 'x', role: 'ROLE_AGENT', parts: [{ text: 'done ✓' }] },
    },
    artifacts: [
      {
        artifactId: 'r',
        name: 'shortlist',
        parts: [{ text: 'one' }, { data: { n: 1, k: [true] } }],
      },
      {
        artifactId: 's',
        parts: [
          {
            raw: Buffer.from([0, 255, 7]).toString('base64'),
            mediaType: 'application/octet-stream',
          },
        ],
      },
    ],
    history: [
      {
        messageId: 'u',
        role: 'ROLE_USER',
        parts: [{ text: 'which harness for rust' }],
        metadata: { a: null },
      },
    ],
    metadata: { superqodeSkill: 'harness-shortlist', nested: { deep: [1, 'two'] } },
  }),
};

describe('sendMessageResponseText (issue #14: the reply reuses the row text)', () => {
  it.each(Object.entries(TASKS))(
    'is the bytes of JSON.stringify(SendMessageResponse.toJSON(…)) for a saved task: %s',
    (_name, task) => {
      const expected = JSON.stringify(
        SendMessageResponse.toJSON({ payload: { $case: 'task', value: task } }),
      );
      expect(sendMessageResponseText(task)).toBe(expected); // not encoded: converted now
      toTaskEntity(SCOPE, task, 0);
      const taskText = JSON.stringify(Task.toJSON(task));
      const convert = jest.spyOn(Task, 'toJSON');
      try {
        expect(sendMessageResponseText(task)).toBe(expected); // joined from the row
        expect(convert).not.toHaveBeenCalled();
        // The row was taken by that reply (nothing keeps its strings alive): converted again.
        expect(taskJsonText(task)).toBe(taskText);
        expect(convert).toHaveBeenCalledTimes(1);
      } finally {
        convert.mockRestore();
      }
    },
  );

  it('joins from the row of that very object only: a copy is converted afresh', () => {
    const task = TASKS.full!;
    toTaskEntity(SCOPE, task, 0);
    const changed: Task = {
      ...task,
      status: { ...task.status!, state: TaskState.TASK_STATE_FAILED },
    };
    expect(taskJsonText(changed)).toBe(JSON.stringify(Task.toJSON(changed)));
    expect(taskJsonText(changed)).toContain('"TASK_STATE_FAILED"');
  });

  it('writes a Message result as {"message": …}', () => {
    const reply = Task.fromJSON({
      id: 't',
      history: [{ messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] }],
    }).history[0]!;
    expect(reply.role).toBe(Role.ROLE_AGENT);
    expect(JSON.parse(sendMessageResponseText(reply))).toEqual({
      message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] },
    });
  });
});
