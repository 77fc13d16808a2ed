import { A2AClient } from '../../src/modules/client/a2a-client';
import { cardUrlCandidates, MemoryCardCache } from '../../src/modules/client/card-discovery';
import { A2AClientErrorCode } from '../../src/modules/client/client.errors';
import { ClientTrace, formatTraceEntry } from '../../src/modules/client/client-trace';
import { viewResult } from '../../src/modules/client/result-view';
import { aV03Card, aV1Card, FakeAgent, json, startFakeAgent } from '../fakes/client-fake-agent';

const fakes: FakeAgent[] = [];
async function fake(...args: Parameters<typeof startFakeAgent>): Promise<FakeAgent> {
  const f = await startFakeAgent(...args);
  fakes.push(f);
  return f;
}
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

const jsonrpc10 = (url: string) => ({ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });

describe('A2AClient discovery (A2A §5; RFC 8615)', () => {
  it.each([
    [
      'https://a.example',
      ['https://a.example/.well-known/agent-card.json', 'https://a.example/.well-known/agent.json'],
    ],
    [
      'https://a.example///',
      ['https://a.example/.well-known/agent-card.json', 'https://a.example/.well-known/agent.json'],
    ],
    [
      'https://a.example/.well-known/agent-card.json',
      ['https://a.example/.well-known/agent-card.json', 'https://a.example/.well-known/agent.json'],
    ],
    ['https://a.example/.well-known/agent.json?x=1', ['https://a.example/.well-known/agent.json']],
    ['https://a.example/team/card.json', ['https://a.example/team/card.json']],
    [
      'https://a.example/agents/x/',
      [
        'https://a.example/agents/x/.well-known/agent-card.json',
        'https://a.example/agents/x/.well-known/agent.json',
      ],
    ],
  ])('normalises %s', (input, expected) => {
    expect(cardUrlCandidates(input)).toEqual(expected);
  });

  it('refuses a non-http URL with INVALID_URL', () => {
    expect(() => cardUrlCandidates('ftp://a.example')).toThrow(
      expect.objectContaining({ code: A2AClientErrorCode.InvalidUrl }),
    );
    expect(() => cardUrlCandidates('not a url')).toThrow(
      expect.objectContaining({ code: A2AClientErrorCode.InvalidUrl }),
    );
  });

  it('falls back to /.well-known/agent.json after a 404, and says so in the trace', async () => {
    const f = await fake({
      cardPath: '/.well-known/agent.json',
      card: (b) => aV1Card([jsonrpc10(b)]),
    });
    const trace = new ClientTrace();
    const client = await A2AClient.connect(`${f.url}/`, { trace });
    expect(client.discovery.cardUrl).toBe(`${f.url}/.well-known/agent.json`);
    expect(trace.entries.map(formatTraceEntry).join('\n')).toMatch(
      /404 at .*agent-card\.json; trying .*agent\.json/,
    );
    expect(viewResult(await client.send('hi')).state).toBe('completed');
  });

  it('accepts a pasted card URL', async () => {
    const f = await fake({ card: (b) => aV1Card([jsonrpc10(b)]) });
    const client = await A2AClient.connect(`${f.url}/.well-known/agent-card.json`);
    expect(client.discovery.cardUrl).toBe(`${f.url}/.well-known/agent-card.json`);
  });

  it('a 404 on both paths is CARD_NOT_FOUND naming both', async () => {
    const f = await fake({});
    await expect(A2AClient.connect(f.url)).rejects.toMatchObject({
      code: A2AClientErrorCode.CardNotFound,
      message: expect.stringMatching(/agent-card\.json nor .*agent\.json/),
    });
  });

  it.each([401, 403])('a %i on discovery says the card is protected', async (status) => {
    const f = await fake({
      routes: [(r, res) => r.path.startsWith('/.well-known/') && json(res, status, {})],
    });
    await expect(A2AClient.connect(f.url)).rejects.toMatchObject({
      code: A2AClientErrorCode.CardProtected,
      message: expect.stringMatching(/protected \(HTTP \d+\)/),
    });
  });

  it('revalidates a cached card with If-None-Match; a 304 reuses it (RFC 9110 §13.1.2)', async () => {
    const f = await fake({ etag: 'W/"v1"', card: (b) => aV1Card([jsonrpc10(b)]) });
    const cache = new MemoryCardCache();
    const first = await A2AClient.connect(f.url, { cardCache: cache });
    expect(first.discovery).toMatchObject({ fromCache: false, etag: 'W/"v1"' });
    const second = await A2AClient.connect(f.url, { cardCache: cache });
    expect(second.discovery.fromCache).toBe(true);
    expect(second.rawCard.name).toBe('Fake');
    const cardRequests = f.requests.filter((r) => r.path.endsWith('agent-card.json'));
    expect(cardRequests.map((r) => r.headers['if-none-match'])).toEqual([undefined, 'W/"v1"']);
    expect(cardRequests.every((r) => r.headers['a2a-version'] === '1.0')).toBe(true);
  });

  it('bounds the card size (RESPONSE_TOO_LARGE) and the wait (TIMEOUT)', async () => {
    const big = await fake({
      card: (b) => aV1Card([jsonrpc10(b)], { description: 'x'.repeat(20_000) }),
    });
    await expect(A2AClient.connect(big.url, { maxBodyBytes: 10_000 })).rejects.toMatchObject({
      code: A2AClientErrorCode.ResponseTooLarge,
    });
    const slow = await fake({
      routes: [
        async (_r, res) => {
          await new Promise((r) => setTimeout(r, 600));
          return json(res, 404, {});
        },
      ],
    });
    await expect(A2AClient.connect(slow.url, { timeoutMs: 200 })).rejects.toMatchObject({
      code: A2AClientErrorCode.Timeout,
    });
  });

  it('an unreachable host is UNREACHABLE', async () => {
    await expect(A2AClient.connect('http://127.0.0.1:9')).rejects.toMatchObject({
      code: A2AClientErrorCode.Unreachable,
    });
  });

  it('a card that is not JSON is CARD_INVALID', async () => {
    const f = await fake({
      routes: [
        (r, res) =>
          r.path.endsWith('agent-card.json') &&
          (res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'), true),
      ],
    });
    await expect(A2AClient.connect(f.url)).rejects.toMatchObject({
      code: A2AClientErrorCode.CardInvalid,
    });
  });
});

describe('A2AClient interface choice', () => {
  it('a 0.3-only card (url + preferredTransport) is spoken over JSON-RPC 0.3', async () => {
    const f = await fake({ card: (b) => aV03Card(b) });
    const client = await A2AClient.connect(f.url);
    expect(client.interface.chosen).toMatchObject({ spoken: 'JSONRPC 0.3', source: 'url' });
    const result = await client.send('hello');
    expect(viewResult(result)).toMatchObject({ state: 'completed', text: ['echo: hello'] });
    const call = f.requests.find((r) => r.method === 'POST');
    expect(JSON.parse(call?.body ?? '{}').method).toBe('message/send');
  });

  it('skips what it cannot speak and takes the first entry it can, with reasons', async () => {
    const f = await fake({
      card: (b) =>
        aV1Card([
          { url: b, protocolBinding: 'GRPC', protocolVersion: '1.0' },
          { url: b, protocolBinding: 'HTTP+JSON', protocolVersion: '2.0' },
          { url: `${b}/`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
          jsonrpc10(b),
        ]),
      routes: [
        (r, res) =>
          r.path === '/message:send' &&
          json(res, 200, {
            task: {
              id: 't',
              contextId: 'c',
              status: { state: 'TASK_STATE_COMPLETED' },
              artifacts: [{ artifactId: 'a', parts: [{ text: 'rest ok' }] }],
            },
          }),
      ],
    });
    const client = await A2AClient.connect(f.url);
    expect(client.interface.chosen).toMatchObject({
      spoken: 'HTTP+JSON 1.0',
      source: 'supportedInterfaces[2]',
    });
    expect(client.interface.reason).toMatch(/earlier entries skipped/);
    expect(client.interface.verdicts.map((v) => v.reason).slice(0, 2)).toEqual([
      'gRPC is not supported by this client',
      'protocol version "2.0" is not 1.0 or 0.3',
    ]);
    expect(viewResult(await client.send('x')).text).toEqual(['rest ok']);
  });

  it('when nothing is usable, the error lists every entry and why', async () => {
    const f = await fake({
      card: (b) =>
        aV1Card([
          { url: b, protocolBinding: 'GRPC', protocolVersion: '1.0' },
          { url: b, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
          { url: 'ws://x', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          { url: b, protocolBinding: 'SOAP', protocolVersion: '1.0' },
        ]),
    });
    const err = await A2AClient.connect(f.url).catch((e: Error) => e);
    expect(err).toMatchObject({ code: A2AClientErrorCode.NoUsableInterface });
    const lines = (err as Error).message.split('\n');
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/supportedInterfaces\[0\]: GRPC 1\.0 .*gRPC is not supported/),
      expect.stringMatching(
        /supportedInterfaces\[1\]: HTTP\+JSON 0\.3 .*not supported by this client/,
      ),
      expect.stringMatching(
        /supportedInterfaces\[2\]: JSONRPC 1\.0 at ws:\/\/x.*ws: URLs are not supported/,
      ),
      expect.stringMatching(/supportedInterfaces\[3\]: SOAP 1\.0 .*unknown binding "SOAP"/),
    ]);
  });
});
