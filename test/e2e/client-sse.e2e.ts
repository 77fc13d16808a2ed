import type { ServerResponse } from 'node:http';
import type { StreamResponse } from '@a2a-js/sdk';
import { A2AClient } from '../../src/modules/client/a2a-client';
import { viewResult } from '../../src/modules/client/result-view';
import { aV1Card, FakeAgent, json, RpcCall, startFakeAgent } from '../fakes/client-fake-agent';

const task = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } };
const done = { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } };
const tick = (n: number) => ({
  taskId: 't1',
  contextId: 'c1',
  artifact: { artifactId: 'a', parts: [{ text: `tick ${n}` }] },
});

/** Writes raw SSE text for one JSON-RPC stream call. */
function sse(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(body);
}
const frame = (id: unknown, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });

let f: FakeAgent;
let client: A2AClient;
let script: (call: RpcCall, res: ServerResponse) => void;

beforeAll(async () => {
  f = await startFakeAgent({
    card: (b) => aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]),
    rpc: (call, res) => script(call, res),
  });
  client = await A2AClient.connect(f.url);
});
afterAll(() => f.close());

async function views(): Promise<ReturnType<typeof viewResult>[]> {
  const out: StreamResponse[] = [];
  for await (const e of client.stream('go')) out.push(e);
  return out.map(viewResult);
}

describe('A2AClient streams with odd SSE framing (WHATWG SSE §9.2)', () => {
  it('keeps a final event sent without a blank line or even a newline', async () => {
    script = (c, res) =>
      sse(res, `data: ${frame(c.id, { task })}\n\ndata: ${frame(c.id, { statusUpdate: done })}`);
    expect((await views()).map((v) => v.state)).toEqual(['working', 'completed']);
  });

  it('skips comments and keep-alives, joins multi-line data, accepts CRLF', async () => {
    const multi = JSON.stringify(
      { jsonrpc: '2.0', id: 0, result: { artifactUpdate: tick(1) } },
      null,
      2,
    ).split('\n');
    script = (c, res) =>
      sse(
        res,
        `: hello\r\n\r\ndata: ${frame(c.id, { task })}\r\n\r\n: ping\n\n` +
          multi.map((l) => `data: ${l.replace('"id": 0', `"id": ${String(c.id)}`)}`).join('\n') +
          `\n\nevent: message\ndata: ${frame(c.id, { statusUpdate: done })}\n\n`,
      );
    const v = await views();
    expect(v.map((x) => x.kind)).toEqual(['task', 'artifact', 'status']);
    expect(v[1].text).toEqual(['tick 1']);
  });

  it('a JSON-RPC error answering a stream call (application/json, no SSE) becomes an error', async () => {
    script = (c, res) =>
      json(res, 200, {
        jsonrpc: '2.0',
        id: c.id,
        error: { code: -32004, message: 'Streaming is not supported' },
      });
    await expect(views()).rejects.toThrow(/Streaming is not supported/);
  });

  it('an error event in the middle of a stream ends it with that error', async () => {
    script = (c, res) =>
      sse(
        res,
        `data: ${frame(c.id, { task })}\n\nevent: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: c.id, error: { code: -32603, message: 'agent crashed' } })}\n\n`,
      );
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of client.stream('go')) seen.push(viewResult(e).kind);
      })(),
    ).rejects.toThrow(/agent crashed/);
    expect(seen).toEqual(['task']);
  });
});
