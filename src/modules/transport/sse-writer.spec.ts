import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { writeSse } from './sse-writer';
import type { SseErrorFrame } from './sse-writer';

/** A stream that yields one event, then fails (a mid-stream failure). */
async function* failingStream(): AsyncGenerator<{ n: number }> {
  yield { n: 1 };
  yield { n: 2 };
  throw new Error('store went away');
}

describe('writeSse mid-stream failure framing (issue #11.10)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    app.get('/:frame', async (req, reply) => {
      const iterator = failingStream();
      const first = await iterator.next();
      await writeSse({
        reply,
        first,
        rest: iterator,
        encode: (e) => ({ jsonrpc: '2.0', id: 1, result: e }),
        encodeError: () => ({
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32603, message: 'Internal error.' },
        }),
        onDisconnect: 'drain',
        errorFrame: (req.params as { frame: SseErrorFrame }).frame,
      });
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it("'data' (A2A 0.3): the error is a plain data: frame after the events, no event: line", async () => {
    const res = await app.inject({ method: 'GET', url: '/data' });
    expect(res.headers['content-type']).toContain('text/event-stream');
    const frames = res.body.split('\n\n').filter(Boolean);
    expect(frames).toHaveLength(3);
    expect(res.body).not.toMatch(/^event:/m);
    expect(JSON.parse(frames[2].slice('data: '.length)).error.code).toBe(-32603);
  });

  it("'event' (A2A 1.0): the error frame is event: error", async () => {
    const res = await app.inject({ method: 'GET', url: '/event' });
    expect(res.body.split('\n\n').filter(Boolean)[2]).toMatch(/^event: error\ndata: .*-32603/);
  });
});
