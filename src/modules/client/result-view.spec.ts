import { TaskState } from '@a2a-js/sdk';
import { partText, stateName, viewResult } from './result-view';

describe(viewResult.name, () => {
  it.each([[TaskState.TASK_STATE_COMPLETED], ['TASK_STATE_COMPLETED'], ['completed']])(
    'state %p reads as completed',
    (s) => {
      expect(stateName(s)).toBe('completed');
    },
  );

  it('normalises input-required in both spellings, and unknown input', () => {
    expect(stateName('TASK_STATE_INPUT_REQUIRED')).toBe('input-required');
    expect(stateName('input-required')).toBe('input-required');
    expect(stateName(undefined)).toBe('unknown');
  });

  it('reads the same task in v1.0 JSON, v0.3 JSON and SDK shapes', () => {
    const v1 = {
      task: {
        id: 't',
        contextId: 'c',
        status: { state: 'TASK_STATE_COMPLETED' },
        artifacts: [{ parts: [{ text: 'hi' }, { data: { a: 1 } }] }],
      },
    };
    const v03 = {
      kind: 'task',
      id: 't',
      contextId: 'c',
      status: { state: 'completed' },
      artifacts: [
        {
          parts: [
            { kind: 'text', text: 'hi' },
            { kind: 'data', data: { a: 1 } },
          ],
        },
      ],
    };
    const sdk = {
      id: 't',
      contextId: 'c',
      status: { state: TaskState.TASK_STATE_COMPLETED },
      artifacts: [
        {
          parts: [
            { content: { $case: 'text', value: 'hi' } },
            { content: { $case: 'data', value: { a: 1 } } },
          ],
        },
      ],
    };
    const expected = {
      kind: 'task',
      taskId: 't',
      contextId: 'c',
      state: 'completed',
      text: ['hi', '[data] {"a":1}'],
    };
    for (const shape of [v1, v03, sdk]) expect(viewResult(shape)).toEqual(expected);
  });

  it('reads stream events (SDK payloads and v0.3 kinds) and message replies', () => {
    expect(
      viewResult({
        payload: {
          $case: 'statusUpdate',
          value: { taskId: 't', contextId: 'c', status: { state: 2 } },
        },
      }),
    ).toMatchObject({ kind: 'status', state: 'working' });
    expect(
      viewResult({
        kind: 'artifact-update',
        taskId: 't',
        artifact: { parts: [{ kind: 'text', text: 'x' }] },
      }),
    ).toMatchObject({ kind: 'artifact', text: ['x'] });
    expect(viewResult({ message: { messageId: 'm', parts: [{ text: 'hello' }] } })).toMatchObject({
      kind: 'message',
      text: ['hello'],
    });
  });

  it('summarises a long data part (size and keys) instead of printing its JSON', () => {
    const data = { shortlist: Array.from({ length: 50 }, (_, i) => ({ id: i })), notes: [] };
    expect(partText({ data })).toMatch(
      /^\[data\] \d+ bytes of JSON \(shortlist, notes\); --json shows it whole$/,
    );
  });
});
