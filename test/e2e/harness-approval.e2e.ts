import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NOT_EXECUTED_OUTPUT } from '../../src/modules/harness/core/conversation';
import {
  HarnessRunNotResumableError,
  HarnessSessionBusyError,
} from '../../src/modules/harness/protocol/harness-protocol.errors';
import { collect, first, harnessSuite, specFrom, typesOf } from '../fakes/harness-fixtures';

const ASK_SPEC = `
name: e2e-ask
execution_policy:
  allow_read: true
  allow_write: true
  permission_rules:
    - { tool: write_file, action: ask }
`;

const WRITE_CALL = {
  id: 'call_write',
  name: 'write_file',
  arguments: { path: 'out.txt', content: 'approved\n' },
};

describe('harness approvals (ask → needs_approval → resume)', () => {
  const suite = harnessSuite({ 'README.md': '# demo\n' });

  /** A session whose first run asks to write out.txt and pauses. */
  async function pausedRun() {
    const s = await suite.harness.controller.createSession({
      spec: specFrom(ASK_SPEC),
      workingDir: suite.checkout.dir,
      model: { provider: 'openai-compatible', model: 'fake-model', baseUrl: suite.fake.baseUrl },
    });
    suite.fake.enqueue({ text: 'Writing.', toolCalls: [WRITE_CALL] });
    const events = await collect(suite.harness.controller.send(s.id, 'write out.txt'));
    return { session: s, runId: events[0].run_id, events };
  }

  it('pauses with approval.requested and needs_approval, without executing the call', async () => {
    const { runId, events } = await pausedRun();

    expect(typesOf(events).slice(-4)).toEqual([
      'model.completed',
      'tool.requested',
      'approval.requested',
      'run.completed',
    ]);
    expect(first(events, 'tool.requested').data.decision).toBe('ask');
    expect(first(events, 'approval.requested').data).toEqual({
      tool_call_id: 'call_write',
      tool_name: 'write_file',
      input: WRITE_CALL.arguments,
      target: 'out.txt',
    });
    expect(first(events, 'run.completed').data).toMatchObject({
      status: 'needs_approval',
      stop_reason: 'approval',
    });
    expect(existsSync(join(suite.checkout.dir, 'out.txt'))).toBe(false);
    expect((await suite.harness.ledger.getRun(runId)).status).toBe('needs_approval');
  });

  it('resume approve executes the call, continues the run and records the artifact', async () => {
    const { runId, events: before } = await pausedRun();
    suite.fake.enqueue({ text: 'Wrote out.txt.' });
    const events = await collect(suite.harness.controller.resume(runId, 'approve'));

    expect(typesOf(events)).toEqual([
      'approval.resolved',
      'tool.completed',
      'model.requested',
      'message.delta',
      'model.completed',
      'message.created',
      'artifact.created',
      'run.completed',
    ]);
    expect(events[0].sequence).toBe(before.length + 1);
    expect(first(events, 'approval.resolved').data).toMatchObject({ decision: 'approve' });
    expect(first(events, 'tool.completed').data).toMatchObject({ ok: true, refused: null });
    expect(readFileSync(join(suite.checkout.dir, 'out.txt'), 'utf8')).toBe('approved\n');
    expect(first(events, 'artifact.created').data.paths).toEqual(['out.txt']);
    expect(first(events, 'run.completed').data).toMatchObject({
      status: 'succeeded',
      iterations: 2,
    });

    // The resumed model call replays the recorded conversation, tool result included.
    const sent = suite.fake.requests[suite.fake.requests.length - 1].body.messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(sent[2].tool_calls?.[0]).toMatchObject({
      id: 'call_write',
      function: { name: 'write_file' },
    });
    expect(sent[3].tool_call_id).toBe('call_write');

    const detail = await suite.harness.ledger.showRun(runId);
    expect(detail.run.status).toBe('succeeded');
    expect(detail.events.map((e) => e.sequence)).toEqual(detail.events.map((_, i) => i + 1));
  });

  it('resume deny refuses the call ("denied by user") and lets the model answer', async () => {
    const { runId } = await pausedRun();
    suite.fake.enqueue({ text: 'Understood, not writing.' });
    const events = await collect(suite.harness.controller.resume(runId, 'deny'));

    expect(first(events, 'approval.resolved').data.decision).toBe('deny');
    expect(first(events, 'tool.completed').data).toMatchObject({
      ok: false,
      refused: 'user',
      output: 'denied by user',
    });
    expect(existsSync(join(suite.checkout.dir, 'out.txt'))).toBe(false);
    expect(events.some((e) => e.type === 'artifact.created')).toBe(false);
    expect(first(events, 'run.completed').data.status).toBe('succeeded');
    const sent = suite.fake.requests[suite.fake.requests.length - 1].body.messages;
    expect(JSON.stringify(sent[sent.length - 1])).toContain('denied by user');
  });

  it('refuses a new prompt while a run waits; cancel closes it and the session goes on', async () => {
    const { session, runId } = await pausedRun();
    await expect(
      collect(suite.harness.controller.send(session.id, 'another')),
    ).rejects.toBeInstanceOf(HarnessSessionBusyError);

    await suite.harness.controller.cancel(runId);
    const detail = await suite.harness.ledger.showRun(runId);
    expect(detail.run.status).toBe('cancelled');
    expect(detail.events[detail.events.length - 1]).toMatchObject({
      type: 'run.cancelled',
      sequence: detail.events.length,
    });
    await expect(collect(suite.harness.controller.resume(runId, 'approve'))).rejects.toBeInstanceOf(
      HarnessRunNotResumableError,
    );

    suite.fake.enqueue({ text: 'Second answer.' });
    const next = await collect(suite.harness.controller.send(session.id, 'second prompt'));
    expect(first(next, 'run.completed').data.status).toBe('succeeded');
    const sent = suite.fake.requests[suite.fake.requests.length - 1].body.messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(JSON.stringify(sent[3])).toContain(NOT_EXECUTED_OUTPUT);
  });
});
