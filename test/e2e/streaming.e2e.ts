import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { withSlowExecutor } from '../utils/executor-override';
import { TestServer, startTestServer } from '../utils/test-app';

const REST_V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

/** Reads SSE `data:` frames from a fetch Response until `max` frames or the end. */
async function frames(res: Response, max = Infinity): Promise<unknown[]> {
  const out: unknown[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  while (out.length < max) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0 && out.length < max) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      if (data) out.push(JSON.parse(data));
    }
  }
  if (out.length >= max) await reader.cancel();
  return out;
}

async function waitForState(url: string, id: string, state: string): Promise<string> {
  let last = '';
  for (let i = 0; i < 100; i++) {
    const r = await post(url, aJsonRpcRequest('GetTask', { id }), V1);
    last = r.body.result?.status?.state;
    if (last === state) return last;
    await new Promise((res) => setTimeout(res, 50));
  }
  return last;
}

describe('Streaming over SSE (A2A §3.3)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { customize: withSlowExecutor });
  });
  afterAll(() => server.close());

  it('JSON-RPC SendStreamingMessage answers text/event-stream with one envelope per frame, in order', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: V1,
      body: JSON.stringify(
        aJsonRpcRequest('SendStreamingMessage', { message: aMessage('slow 2') }, 'r1'),
      ),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const all = (await frames(res)) as { id: string; result: Record<string, any> }[];
    expect(all.every((f) => f.id === 'r1')).toBe(true);
    expect(Object.keys(all[0].result)).toEqual(['task']);
    expect(all.at(-1)!.result.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('REST message:stream frames are StreamResponse objects', async () => {
    const res = await fetch(`${server.url}/message:stream`, {
      method: 'POST',
      headers: REST_V1,
      body: JSON.stringify({ message: aMessage('slow 2') }),
    });
    const all = (await frames(res)) as Record<string, any>[];
    expect(Object.keys(all[0])).toEqual(['task']);
    expect(all.filter((f) => f.artifactUpdate).length).toBe(2);
  });

  it('an early error is a plain error response, not a stream', async () => {
    const rpc = await post(
      server.url,
      aJsonRpcRequest('SendStreamingMessage', { message: { ...aMessage('x'), parts: [] } }),
      V1,
    );
    expect(rpc.headers.get('content-type')).toContain('application/json');
    expect(rpc.body.error.code).toBe(-32602);
    const rest = await post(
      `${server.url}/message:stream`,
      { message: { ...aMessage('x'), parts: [] } },
      REST_V1,
    );
    expect(rest.status).toBe(400);
  });

  it('a client that disconnects mid-stream does not leave the task WORKING (drained and persisted)', async () => {
    const ctrl = new AbortController();
    const res = await fetch(server.url, {
      method: 'POST',
      headers: V1,
      signal: ctrl.signal,
      body: JSON.stringify(
        aJsonRpcRequest('SendStreamingMessage', { message: aMessage('slow 8') }),
      ),
    });
    const [first] = (await frames(res, 1)) as { result: { task: { id: string } } }[];
    ctrl.abort();
    expect(await waitForState(server.url, first.result.task.id, 'TASK_STATE_COMPLETED')).toBe(
      'TASK_STATE_COMPLETED',
    );
  });

  it('0.3 tasks/resubscribe on an unknown task answers SSE with one plain data: error frame (issue #11.10)', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aJsonRpcRequest('tasks/resubscribe', { id: 'nope' })),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    expect(text).toMatch(/^data: .*-32001/);
  });
});
