import { Writable } from 'node:stream';
import { aJsonRpcRequest, post, V1 } from '../fixtures/builders';
import { OPERATOR_TOKEN } from '../fixtures/credentials';
import { startTestServer } from '../utils/test-app';

describe('Structured request logs never carry credentials', () => {
  it('logs one JSON access line per request, never the Authorization header nor access_token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const server = await startTestServer(
      { SUPERQODE_A2A_LOG_LEVEL: 'debug', SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN },
      { logStream: sink },
    );
    try {
      await post(server.url, aJsonRpcRequest('GetTask', { id: 'x' }), {
        ...V1,
        Authorization: `Bearer ${OPERATOR_TOKEN}`,
      });
      await fetch(`${server.url}/tasks?access_token=${OPERATOR_TOKEN}`, {
        headers: { 'A2A-Version': '1.0' },
      });
    } finally {
      await server.close();
    }
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const access = parsed.filter((p) => p.context === 'access');
    expect(access).toEqual([
      expect.objectContaining({ method: 'POST', route: '/', binding: 'jsonrpc', tier: 'operator' }),
      expect.objectContaining({
        method: 'GET',
        route: '/tasks',
        binding: 'rest',
        tier: 'operator',
      }),
    ]);
    expect(lines.join('\n')).not.toContain(OPERATOR_TOKEN);
  });
});
