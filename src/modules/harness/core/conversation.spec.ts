import type { HarnessEvent } from '../protocol/harness-events';
import {
  conversationFrom,
  iterationsOf,
  NOT_EXECUTED_OUTPUT,
  pendingApprovals,
} from './conversation';

let seq = 0;
function ev(run: string, type: string, data: object): HarnessEvent {
  seq += 1;
  return {
    event_id: `e${seq}`,
    session_id: 's',
    run_id: run,
    sequence: seq,
    timestamp: '',
    type,
    data,
  } as HarnessEvent;
}

const assistantCall = (id: string) => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'write_file', input: { path: 'x' } }],
});

const paused = [
  ev('r1', 'run.started', { prompt: 'first' }),
  ev('r1', 'model.completed', { messages: [assistantCall('c1')] }),
  ev('r1', 'approval.requested', {
    tool_call_id: 'c1',
    tool_name: 'write_file',
    input: {},
    target: 'x',
  }),
];

describe('conversationFrom', () => {
  it('keeps the calls of the run being resumed open', () => {
    const messages = conversationFrom(paused, 'r1');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(pendingApprovals(paused).map((p) => p.tool_call_id)).toEqual(['c1']);
    expect(iterationsOf(paused)).toBe(1);
  });

  it('answers calls an ended run left without a result, so the next prompt is valid', () => {
    const events = [...paused, ev('r2', 'run.started', { prompt: 'second' })];
    const messages = conversationFrom(events);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(JSON.stringify(messages[2])).toContain(NOT_EXECUTED_OUTPUT);
  });

  it('merges consecutive tool results and drops stored messages the SDK schema rejects', () => {
    const events = [
      ev('r1', 'run.started', { prompt: 'p' }),
      ev('r1', 'model.completed', { messages: [assistantCall('a'), { role: 'bogus' }] }),
      ev('r1', 'tool.completed', {
        tool_call_id: 'a',
        tool_name: 'write_file',
        ok: true,
        output: 'ok',
      }),
      ev('r1', 'tool.completed', {
        tool_call_id: 'b',
        tool_name: 'write_file',
        ok: false,
        output: 'no',
      }),
    ];
    const messages = conversationFrom(events);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages[2].content).toHaveLength(2);
    expect(JSON.stringify(messages[2])).toContain('"error-text"');
  });
});
