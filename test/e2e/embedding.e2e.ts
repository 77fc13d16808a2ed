import type { AddressInfo } from 'node:net';
import { ClientFactory } from '@a2a-js/sdk/client';
import { EchoController } from '../../examples/embedding/echo-controller-server';
import { createA2AServer } from '../../src/index';
import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { anSdkSendRequest } from '../fixtures/sdk-requests';
import { freePort } from '../utils/test-app';

/** The embedding example's echo controller in a server with in-memory stores, limits off. */
const anEchoServer = () =>
  createA2AServer({
    controller: new EchoController(),
    taskStorePath: null,
    harnessStorePath: ':memory:',
    env: { SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 0, SUPERQODE_A2A_LOG_LEVEL: 'error' },
  });

describe('createA2AServer (programmatic API, issue #5)', () => {
  it("serves an embedding application's own controller, with listen() and close()", async () => {
    const server = anEchoServer();
    const signals = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGUSR2'] as const;
    const listeners = () => signals.map((signal) => process.listenerCount(signal));
    const before = listeners();
    const url = await server.listen({ host: '127.0.0.1', port: await freePort() });
    try {
      // The embedding application owns its process's signals: the server adds no handler.
      expect(listeners()).toEqual(before);
      const card = await get(`${url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' });
      expect(card.body.skills.map((s: { id: string }) => s.id)).toContain('superqode-harness');
      const r = await post(
        url,
        aJsonRpcRequest('SendMessage', { message: aMessage('hello there') }),
        V1,
      );
      const task = r.body.result.task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(task.artifacts[0].parts.map((p: { text: string }) => p.text).join('')).toBe(
        'echo: hello there',
      );
    } finally {
      await server.close();
    }
    expect(server.app).toBeUndefined();
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it('port 0: listen() returns the port it chose, and the card advertises it, so the SDK client follows the card', async () => {
    const server = anEchoServer();
    const url = await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(new URL(url).port).not.toBe('0');
      const bound = server.app!.getHttpServer().address() as AddressInfo;
      expect(bound.port).toBe(Number(new URL(url).port));
      const client = await new ClientFactory().createFromUrl(url);
      const card = await client.getAgentCard();
      expect(card.supportedInterfaces.map((i) => i.url)).toEqual([url, url, url]);
      const sent = await client.sendMessage(anSdkSendRequest('over the card'));
      expect(JSON.stringify(sent)).toContain('echo: over the card');
    } finally {
      await server.close();
    }
  });
});
