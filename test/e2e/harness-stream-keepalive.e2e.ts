import { aJsonRpcRequest, aLegacyMessage, aMessage, V1 } from '../fixtures/builders';
import { harnessServerSuite } from '../fakes/harness-server';

const SPEC = `
name: keepalive-e2e
execution_policy:
  allow_read: true
`;

/** The raw SSE body of a streaming request on one binding. */
async function rawStream(
  url: string,
  binding: 'jsonrpc-1.0' | 'jsonrpc-0.3' | 'rest',
): Promise<string> {
  const [target, headers, body] =
    binding === 'rest'
      ? [`${url}/message:stream`, V1, { message: aMessage('explain slowly') }]
      : binding === 'jsonrpc-0.3'
        ? [
            url,
            { 'content-type': 'application/json' },
            aJsonRpcRequest('message/stream', { message: aLegacyMessage('explain slowly') }),
          ]
        : [
            url,
            V1,
            aJsonRpcRequest('SendStreamingMessage', { message: aMessage('explain slowly') }),
          ];
  const res = await fetch(target, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  return res.text();
}

describe('SSE keep-alive comments during a slow model step, on every binding (issue #16)', () => {
  // A short interval (setting) and a model that pauses between chunks: comments arrive in between.
  const suite = harnessServerSuite(
    SPEC,
    { 'README.md': '# demo\n' },
    { SUPERQODE_A2A_SSE_KEEPALIVE_MS: 25 },
  );

  it.each(['jsonrpc-1.0', 'jsonrpc-0.3', 'rest'] as const)(
    '%s: a ": keep-alive" comment arrives while the model is slow',
    async (binding) => {
      suite.fake.enqueue({ text: 'a slow answer', chunkDelayMs: 250 });
      const text = await rawStream(suite.server.url, binding);
      const blocks = text.split('\n\n').filter(Boolean);
      const firstData = blocks.findIndex((b) => b.startsWith('data:'));
      const keepAlive = blocks.findIndex((b, i) => i > firstData && b === ': keep-alive');
      expect(firstData).toBeGreaterThanOrEqual(0);
      expect(keepAlive).toBeGreaterThan(firstData);
      // The stream still ends with the answer's completion.
      expect(blocks.filter((b) => b.startsWith('data:')).at(-1)).toMatch(/COMPLETED|completed/);
    },
  );
});
