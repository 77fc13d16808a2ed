import { rmSync } from 'node:fs';
import { A2AClient } from '../../src/modules/client/a2a-client';
import { A2AClientErrorCode } from '../../src/modules/client/client.errors';
import { ClientTrace, formatTraceEntry } from '../../src/modules/client/client-trace';
import { viewResult } from '../../src/modules/client/result-view';
import { aV1Card, FakeAgent, SeenRequest, startFakeAgent } from '../fakes/client-fake-agent';
import { makeTestPki, TestPki } from '../fakes/client-tls';

const fakes: FakeAgent[] = [];
async function fake(...args: Parameters<typeof startFakeAgent>): Promise<FakeAgent> {
  const f = await startFakeAgent(...args);
  fakes.push(f);
  return f;
}
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

const KEY = 'sqk_live_abcDEF0123456789.signature-part';
const card = (schemes: Record<string, unknown>, security?: unknown) => (b: string) =>
  aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], {
    securitySchemes: schemes,
    ...(security ? { securityRequirements: security } : {}),
  });
const rpcCalls = (f: FakeAgent): SeenRequest[] => f.requests.filter((r) => r.method === 'POST');
const traced = (t: ClientTrace): string => t.entries.map(formatTraceEntry).join('\n');

describe('A2AClient credentials: the card decides what is sent', () => {
  it('API key in the query parameter the card names; redacted in the trace', async () => {
    const f = await fake({
      card: card({ key: { apiKeySecurityScheme: { location: 'query', name: 'api_key' } } }, [
        { schemes: { key: { list: [] } } },
      ]),
      auth: (r) => r.query.get('api_key') === KEY,
    });
    const trace = new ClientTrace();
    const client = await A2AClient.connect(f.url, { token: KEY, trace });
    expect(viewResult(await client.send('hi')).state).toBe('completed');
    expect(rpcCalls(f)[0].headers.authorization).toBeUndefined();
    expect(client.auth.lines).toEqual([
      'key: API key in query "api_key" → sending query parameter api_key=[REDACTED] (token from --token)',
    ]);
    expect(traced(trace)).toMatch(/\?api_key=\[REDACTED\]/);
    expect(traced(trace)).not.toContain('abcDEF0123456789');
  });

  it('API key in a header (v0.3 card shape), only when the card does not also ask for Bearer', async () => {
    const f = await fake({
      card: card({ k: { type: 'apiKey', in: 'header', name: 'X-API-Key' } }),
      auth: (r) => r.headers['x-api-key'] === KEY,
    });
    const client = await A2AClient.connect(f.url, { token: KEY });
    expect(viewResult(await client.send('hi')).state).toBe('completed');
    const both = await fake({
      card: card({
        k: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        b: { type: 'http', scheme: 'bearer' },
      }),
    });
    const c2 = await A2AClient.connect(both.url, { token: KEY });
    await c2.send('hi');
    expect(rpcCalls(both)[0].headers).toMatchObject({ authorization: `Bearer ${KEY}` });
    expect(rpcCalls(both)[0].headers['x-api-key']).toBeUndefined();
  });

  it('HTTP Basic takes user:password (RFC 7617); anything else is AUTH_CONFIG', async () => {
    const expected = `Basic ${Buffer.from('ann:s3cret-pw').toString('base64')}`;
    const f = await fake({
      card: card({ basic: { httpAuthSecurityScheme: { scheme: 'Basic' } } }),
      auth: (r) => r.headers.authorization === expected,
    });
    const trace = new ClientTrace();
    const client = await A2AClient.connect(f.url, { token: 'ann:s3cret-pw', trace });
    expect(viewResult(await client.send('hi')).state).toBe('completed');
    expect(traced(trace)).toMatch(/authorization: Basic \[REDACTED\]/);
    expect(traced(trace)).not.toMatch(/s3cret-pw|YW5uOnMzY3JldC1wdw/);
    await expect(A2AClient.connect(f.url, { token: 'no-colon' })).rejects.toMatchObject({
      code: A2AClientErrorCode.AuthConfig,
    });
  });

  it('extra headers go on discovery and on every call; secret-looking ones are redacted', async () => {
    const f = await fake({
      card: card({}),
      protectCard: true,
      auth: (r) => r.headers['x-tenant-key'] === 'tk-0123456789',
    });
    const trace = new ClientTrace();
    const client = await A2AClient.connect(f.url, {
      headers: [
        ['X-Tenant-Key', 'tk-0123456789'],
        ['X-Trace', 'visible'],
      ],
      trace,
    });
    await client.send('hi');
    expect(f.requests.every((r) => r.headers['x-tenant-key'] === 'tk-0123456789')).toBe(true);
    expect(traced(trace)).toMatch(/x-trace: visible/);
    expect(traced(trace)).not.toContain('tk-0123456789');
  });

  it('a card with no scheme gets the token as Bearer, and the trace says so', async () => {
    const f = await fake({ card: card({}) });
    const client = await A2AClient.connect(f.url, { token: 'plain-token-123' });
    await client.send('hi');
    expect(rpcCalls(f)[0].headers.authorization).toBe('Bearer plain-token-123');
    expect(client.auth.lines).toEqual([
      'the card declares no security scheme',
      '(no usable scheme declared) → sending Authorization: Bearer [REDACTED] (token from --token)',
    ]);
  });

  it('GetExtendedAgentCard returns the authenticated card when the card advertises it', async () => {
    const f = await fake({
      card: (b) =>
        aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], {
          capabilities: { streaming: false, extendedAgentCard: true },
          securitySchemes: { b: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        }),
      auth: (r) => r.headers.authorization === 'Bearer ext-token-1234',
      rpc: (c) =>
        c.method === 'GetExtendedAgentCard'
          ? {
              ...aV1Card([{ url: f.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]),
              name: 'Fake (extended)',
            }
          : undefined,
    });
    const client = await A2AClient.connect(f.url, { token: 'ext-token-1234' });
    expect((await client.getExtendedCard()).name).toBe('Fake (extended)');
  });

  describe('mutual TLS (RFC 8705 §2)', () => {
    let pki: TestPki;
    let f: FakeAgent;
    beforeAll(async () => {
      pki = makeTestPki();
      f = await fake({
        tls: {
          key: pki.read(pki.serverKey),
          cert: pki.read(pki.serverCert),
          ca: pki.read(pki.caCert),
          requestCert: true,
        },
        card: card({ mtls: { mtlsSecurityScheme: {} } }),
      });
    });
    afterAll(() => rmSync(pki.dir, { recursive: true, force: true }));

    it('presents the client certificate and trusts the CA given', async () => {
      const client = await A2AClient.connect(f.url, {
        tls: { cert: pki.clientCert, key: pki.clientKey, ca: pki.caCert },
      });
      expect(client.auth.lines).toEqual(['mtls: mutual TLS → client certificate presented']);
      expect(viewResult(await client.send('over mtls')).text).toEqual(['echo: over mtls']);
      await client.close();
    });

    it('without a certificate, or with one from another CA, the handshake fails (TLS_CONFIG, named: test/e2e/client-mtls)', async () => {
      await expect(A2AClient.connect(f.url, { tls: { ca: pki.caCert } })).rejects.toMatchObject({
        code: A2AClientErrorCode.TlsConfig,
      });
      await expect(
        A2AClient.connect(f.url, {
          tls: { cert: pki.strangerCert, key: pki.strangerKey, ca: pki.caCert },
        }),
      ).rejects.toMatchObject({
        code: A2AClientErrorCode.TlsConfig,
      });
    });

    it('a missing file or a cert without key is TLS_CONFIG', async () => {
      await expect(
        A2AClient.connect(f.url, { tls: { cert: '/nonexistent.pem', key: pki.clientKey } }),
      ).rejects.toMatchObject({ code: A2AClientErrorCode.TlsConfig });
      await expect(
        A2AClient.connect(f.url, { tls: { cert: pki.clientCert } }),
      ).rejects.toMatchObject({ code: A2AClientErrorCode.TlsConfig });
    });
  });
});
