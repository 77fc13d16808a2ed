import { aJsonRpcRequest, aLegacyMessage, aMessage, post, V1 } from '../fixtures/builders';
import { TestServer, startTestServer } from '../utils/test-app';

const REST_V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const withParts = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  ...aMessage('x'),
  parts,
  ...extra,
});

/** Issue #11.11: parts the routed skill cannot read are refused; output modes are honoured. */
describe('Input and output modes of the routed skill (A2A §4.4.5, §3.2.2)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const send = (message: unknown, configuration?: unknown) =>
    post(
      server.url,
      aJsonRpcRequest('SendMessage', { message, ...(configuration ? { configuration } : {}) }),
      V1,
    );

  it.each([
    ['an image URL', { url: 'https://example.com/shot.png', mediaType: 'image/png' }],
    ['a URL with no media type', { url: 'https://example.com/q.txt' }],
    ['raw image bytes', { raw: b64('PNG'), mediaType: 'image/png' }],
    ['raw bytes with no media type', { raw: b64('bytes') }],
    ['a data part', { data: { need: 'python' } }],
  ])('%s is ContentTypeNotSupported (-32005) naming the accepted modes', async (_what, part) => {
    const r = await send(withParts([{ text: 'which harness fits python?' }, part]));
    expect(r.body.error.code).toBe(-32005);
    expect(r.body.error.message).toMatch(
      /message\.parts\[1\].*harness-shortlist.*accepts text\/plain, text\/markdown \(text parts, and text\/\* files/,
    );
  });

  it('REST answers 400 CONTENT_TYPE_NOT_SUPPORTED for an image part (spec §5.4)', async () => {
    const r = await post(
      `${server.url}/message:send`,
      { message: withParts([{ raw: b64('PNG'), mediaType: 'image/png' }]) },
      REST_V1,
    );
    expect(r.status).toBe(400);
    expect(r.body.error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
  });

  it('0.3 file part with a URI is refused with -32005', async () => {
    const message = {
      ...aLegacyMessage('x'),
      parts: [{ kind: 'file', file: { uri: 'https://example.com/a.png', mimeType: 'image/png' } }],
    };
    const r = await post(server.url, aJsonRpcRequest('message/send', { message }));
    expect(r.body.error.code).toBe(-32005);
  });

  it('a text/* file with inline bytes is read as text', async () => {
    const r = await send(
      withParts([
        {
          raw: b64('which harness works as an ACP agent in zed?'),
          mediaType: 'text/markdown',
          filename: 'ask.md',
        },
      ]),
    );
    const text = r.body.result.task.artifacts[0].parts[0].text as string;
    expect(text).toMatch(/^Shortlist for: .*Zed/);
  });

  it('any text/* file with inline bytes (text/csv) is read as text too', async () => {
    const r = await send(
      withParts([
        { raw: b64('which harness is open source and Apache licensed?'), mediaType: 'text/csv' },
      ]),
    );
    expect(r.body.result.task.artifacts[0].parts[0].text).toMatch(
      /^Shortlist for: open source, Apache licence/,
    );
  });

  it('acceptedOutputModes text/plain only: the artifact has no data part', async () => {
    const r = await send(aMessage('which harness is open source?'), {
      acceptedOutputModes: ['text/plain'],
    });
    expect(
      r.body.result.task.artifacts[0].parts.map((p: object) =>
        Object.keys(p).filter((k) => k === 'text' || k === 'data'),
      ),
    ).toEqual([['text']]);
  });

  it('acceptedOutputModes application/json only: the artifact has only the data part', async () => {
    const r = await send(aMessage('which harness is open source?'), {
      acceptedOutputModes: ['application/json'],
    });
    const parts = r.body.result.task.artifacts[0].parts;
    expect(parts).toHaveLength(1);
    expect(parts[0].data.entries.length).toBeGreaterThan(0);
  });

  it('acceptedOutputModes that the skill cannot produce are refused (-32005)', async () => {
    const r = await send(aMessage('which harness is open source?'), {
      acceptedOutputModes: ['image/png'],
    });
    expect(r.body.error.code).toBe(-32005);
    expect(r.body.error.message).toMatch(/text\/plain, application\/json/);
  });

  it('a part with two content members (text and url) is invalid params on JSON-RPC and REST', async () => {
    const message = withParts([{ text: 'which harness?', url: 'https://example.com/a' }]);
    const rpc = await send(message);
    expect(rpc.body.error.code).toBe(-32602);
    expect(rpc.body.error.message).toMatch(/parts\[0\] sets text and url/);
    const stream = await post(server.url, aJsonRpcRequest('SendStreamingMessage', { message }), V1);
    expect(stream.body.error.code).toBe(-32602);
    const rest = await post(`${server.url}/message:send`, { message }, REST_V1);
    expect(rest.status).toBe(400);
    expect(rest.body.error.message).toMatch(/sets text and url/);
  });

  it("the card declares each skill's modes", async () => {
    const card: any = await (
      await fetch(`${server.url}/.well-known/agent-card.json`, {
        headers: { 'A2A-Version': '1.0' },
      })
    ).json();
    expect(card.skills[0]).toMatchObject({
      inputModes: ['text/plain', 'text/markdown'],
      outputModes: ['text/plain', 'application/json'],
    });
    // Agent-wide defaults are what the served skills take and give (here the shortlist alone).
    expect(card).toMatchObject({
      defaultInputModes: ['text/plain', 'text/markdown'],
      defaultOutputModes: ['text/plain', 'application/json'],
    });
  });
});
