import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { startTestServer } from '../utils/test-app';
import { withSlowExecutor } from '../utils/executor-override';
import type { SlowExecutor } from '../fixtures/slow-executor';
import { AGENT_EXECUTOR } from '../../src/modules/skills/skills.constants';

describe('Durable task store: completed tasks survive a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sq-durable-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('GetTask and ListTasks answer for a task created before the restart, on the same file', async () => {
    const first = await startTestServer({}, { dir });
    const sent = await post(
      first.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('which harness for rust') }),
      V1,
    );
    const task = sent.body.result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    await first.close();

    const second = await startTestServer({}, { dir });
    try {
      const got = await post(second.url, aJsonRpcRequest('GetTask', { id: task.id }), V1);
      expect(got.body.result).toMatchObject({
        id: task.id,
        contextId: task.contextId,
        status: { state: 'TASK_STATE_COMPLETED' },
      });
      expect(got.body.result.artifacts).toEqual(task.artifacts);
      const listed = await get(`${second.url}/tasks?contextId=${task.contextId}`, {
        'A2A-Version': '1.0',
      });
      expect(listed.body.tasks.map((t: { id: string }) => t.id)).toEqual([task.id]);
    } finally {
      await second.close();
    }
  });

  it('a task left WORKING by a stopped process is marked FAILED at the next start, naming the interruption', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error');
    const first = await startTestServer({}, { dir, customize: withSlowExecutor });
    const cfg = { returnImmediately: true };
    const sent = await post(
      first.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('slow 500'), configuration: cfg }),
      V1,
    );
    const id = sent.body.result.task.id;
    expect(sent.body.result.task.status.state).not.toBe('TASK_STATE_COMPLETED');
    // The process stops: its executor with it, mid-task.
    await first.app.get<SlowExecutor>(AGENT_EXECUTOR).halt();
    await first.close();

    const second = await startTestServer({}, { dir });
    try {
      const got = await post(second.url, aJsonRpcRequest('GetTask', { id }), V1);
      expect(got.body.result.status.state).toBe('TASK_STATE_FAILED');
      expect(got.body.result.status.message.parts[0].text).toMatch(
        /^Interrupted: the server stopped/,
      );
      const working = await get(`${second.url}/tasks?status=TASK_STATE_WORKING`, {
        'A2A-Version': '1.0',
      });
      expect(working.body.tasks).toEqual([]);
    } finally {
      await second.close();
    }
    // Nothing of the first app runs on after its close (its store is closed: each save would fail).
    const late = logged.mock.calls.map((c) => String(c[0])).filter((m) => /not open/i.test(m));
    logged.mockRestore();
    expect(late).toEqual([]);
  });

  it('--no-task-store keeps tasks in memory: a restart forgets them', async () => {
    const first = await startTestServer({ SUPERQODE_A2A_TASK_STORE_ENABLED: false }, { dir });
    const sent = await post(
      first.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('shortlist') }),
      V1,
    );
    const id = sent.body.result.task.id;
    expect((await post(first.url, aJsonRpcRequest('GetTask', { id }), V1)).body.result.id).toBe(id);
    const health = await get(`${first.url}/health`);
    expect(health.body.taskStore).toEqual({
      durable: false,
      backend: 'memory',
      reachable: true,
      writable: true,
      failedWrites: 0,
    });
    await first.close();
    const second = await startTestServer({ SUPERQODE_A2A_TASK_STORE_ENABLED: false }, { dir });
    try {
      expect((await post(second.url, aJsonRpcRequest('GetTask', { id }), V1)).body.error.code).toBe(
        -32001,
      );
    } finally {
      await second.close();
    }
  });
});
