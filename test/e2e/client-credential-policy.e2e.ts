import { superqodeInProcess, tempHome } from '../fakes/client-cli';
import { aV1Card, FakeAgent, json, startFakeAgent } from '../fakes/client-fake-agent';

const TOKEN = 'policy-token-0123456789';
const jsonrpc = (url: string) => ({ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
const bearer = { securitySchemes: { b: { httpAuthSecurityScheme: { scheme: 'bearer' } } } };

describe('Where credentials may go (issue #17)', () => {
  let home: string;
  let other: FakeAgent;
  const agents: FakeAgent[] = [];
  const run = (args: string[]) => superqodeInProcess(args, { home });
  /** A fake whose card lists `iface` (a function of its own base URL). */
  const cardListing = async (iface: (base: string) => string) => {
    const a = await startFakeAgent({ card: (b) => aV1Card([jsonrpc(iface(b))], bearer) });
    agents.push(a);
    return a;
  };

  beforeAll(async () => {
    other = await startFakeAgent({ card: (b) => aV1Card([jsonrpc(b)], bearer) });
  });
  beforeEach(() => {
    home = tempHome();
    other.requests.length = 0;
  });
  afterAll(async () => {
    await other.close();
    for (const a of agents) await a.close();
  });

  it('an interface on another origin gets no token: one-line refusal naming --trust-origin', async () => {
    const a = await cardListing(() => `${other.url}/`);
    const r = await run(['connect', 'a2a', a.url, '--token', TOKEN, '--header', 'X-Team: blue']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: refusing to send credentials to ${other.url}: not the card's origin (${a.url}); pass --trust-origin ${other.url} if you trust it\n`,
    );
    expect(other.requests).toHaveLength(0);
  });

  it('--trust-origin lets it through, and a saved connection remembers it', async () => {
    const a = await cardListing(() => `${other.url}/`);
    const r = await run([
      'connect',
      'a2a',
      a.url,
      '--token',
      TOKEN,
      '--trust-origin',
      other.url,
      '--save',
      'two',
    ]);
    expect(r.code).toBe(0);
    expect(other.requests.some((q) => q.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    other.requests.length = 0;
    const again = await run(['a2a', 'call', 'two', 'hello again']);
    expect(again.code).toBe(0);
    expect(other.requests.some((q) => q.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('no credentials over plain HTTP to a non-loopback host without --allow-insecure', async () => {
    const a = await cardListing(() => 'http://10.255.255.1:9/');
    const r = await run([
      'connect',
      'a2a',
      a.url,
      '--token',
      TOKEN,
      '--trust-origin',
      'http://10.255.255.1:9',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: refusing to send credentials to http://10.255.255.1:9 over plain HTTP (use https, or --allow-insecure)\n',
    );
  });

  it.each([
    ['http://169.254.169.254/', 'a link-local address (cloud metadata lives there)'],
    ['http://[fe80::1]:9/', 'a link-local address'],
    ['http://0.0.0.0:9/', 'an unspecified address'],
    ['https://metadata.google.internal/', 'a cloud metadata address'],
  ])('never to %s, not even trusted and with --allow-insecure', async (iface, why) => {
    const a = await cardListing(() => iface);
    const origin = new URL(iface).origin;
    const r = await run([
      'connect',
      'a2a',
      a.url,
      '--token',
      TOKEN,
      '--trust-origin',
      origin,
      '--allow-insecure',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: refusing to send credentials to ${origin}: ${why}\n`);
  });

  it('a card fetch redirected to another origin drops --header values and does not move trust there', async () => {
    const redirecting = await startFakeAgent({
      routes: [
        (q, res) => {
          if (!q.path.startsWith('/.well-known/')) return false;
          res.writeHead(302, { location: `${other.url}${q.path}` }).end();
          return true;
        },
      ],
    });
    agents.push(redirecting);
    const r = await run(['connect', 'a2a', redirecting.url, '--header', 'X-Secret: s3cr3t-value']);
    expect(other.requests[0]?.path).toBe('/.well-known/agent-card.json');
    expect(other.requests[0]?.headers['x-secret']).toBeUndefined();
    expect(redirecting.requests[0]?.headers['x-secret']).toBe('s3cr3t-value');
    // The card came from the other origin, but trust stays with the origin typed.
    expect(r.stderr).toContain(
      `refusing to send credentials to ${other.url}: not the card's origin (${redirecting.url})`,
    );
    expect(r.code).toBe(1);
  });

  it('without credentials nothing is refused (the other origin is called)', async () => {
    const a = await cardListing(() => `${other.url}/`);
    const r = await run(['connect', 'a2a', a.url]);
    expect(r.code).toBe(0);
    expect(other.requests.some((q) => q.method === 'POST')).toBe(true);
  });

  it('a card over the size limit fails clearly (exit 1)', async () => {
    const big = await startFakeAgent({
      routes: [
        (q, res) => {
          if (q.path !== '/.well-known/agent-card.json') return false;
          json(res, 200, { ...aV1Card([]), padding: 'x'.repeat(5 * 1024 * 1024) });
          return true;
        },
      ],
    });
    agents.push(big);
    const r = await run(['connect', 'a2a', big.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .*(too large|exceed|limit).*\n$/i);
  });

  it('connect 127.0.0.1:PORT assumes http://', async () => {
    const r = await run(['connect', 'a2a', other.url.replace('http://', ''), '--no-send']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`card:      ${other.url}/.well-known/agent-card.json`);
  });

  it('--trust-origin takes an origin only (usage error, exit 2)', async () => {
    const r = await run(['connect', 'a2a', other.url, '--trust-origin', 'https://x.example/path']);
    expect(r.code).toBe(2);
    expect(r.all).toContain('--trust-origin takes an http(s) origin');
  });

  it('a2a discover reads the extended card when the card offers it (with the credentials)', async () => {
    const ext = await startFakeAgent({
      card: (b) =>
        aV1Card([jsonrpc(b)], {
          ...bearer,
          capabilities: { streaming: true, extendedAgentCard: true },
        }),
      rpc: (call) =>
        call.method === 'GetExtendedAgentCard'
          ? {
              ...aV1Card([jsonrpc('http://x')]),
              name: 'Fake (extended)',
              skills: [{ id: 'deep', name: 'Deep', description: 'd', tags: [] }],
            }
          : undefined,
      auth: (q) => q.headers.authorization === `Bearer ${TOKEN}`,
    });
    agents.push(ext);
    const r = await run(['a2a', 'discover', ext.url, '--token', TOKEN]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('extended card: Fake (extended) 1.0.0; skills: Deep');
    const anonymous = await run(['a2a', 'discover', ext.url]);
    expect(anonymous.stdout).toMatch(/extended card: not read \(.*401/);
  });
});
