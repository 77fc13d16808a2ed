import { rmSync } from 'node:fs';
import { A2AClient } from '../../src/modules/client/a2a-client';
import { A2AClientErrorCode } from '../../src/modules/client/client.errors';
import { viewResult } from '../../src/modules/client/result-view';
import { aV1Card, FakeAgent, startFakeAgent } from '../fakes/client-fake-agent';
import { makeTestPki, startOpensslServer, TestPki } from '../fakes/client-tls';

describe('mutual TLS failures are named, not "cannot reach the host" (RFC 8446 §6.2 alerts, #17)', () => {
  let pki: TestPki;
  let agent: FakeAgent;
  beforeAll(async () => {
    pki = makeTestPki();
    agent = await startFakeAgent({
      tls: {
        key: pki.read(pki.serverKey),
        cert: pki.read(pki.serverCert),
        ca: pki.read(pki.caCert),
        requestCert: true,
      },
      card: (b) =>
        aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], {
          securitySchemes: { mtls: { mtlsSecurityScheme: {} } },
        }),
    });
  });
  afterAll(async () => {
    await agent.close();
    rmSync(pki.dir, { recursive: true, force: true });
  });

  it('the right certificate still works', async () => {
    const client = await A2AClient.connect(agent.url, {
      tls: { cert: pki.clientCert, key: pki.clientKey, ca: pki.caCert },
    });
    expect(viewResult(await client.send('over mtls')).text).toEqual(['echo: over mtls']);
    await client.close();
  });

  it('no client certificate: "the server requires a client certificate", with the flags to pass', async () => {
    await expect(A2AClient.connect(agent.url, { tls: { ca: pki.caCert } })).rejects.toMatchObject({
      code: A2AClientErrorCode.TlsConfig,
      message: expect.stringMatching(
        /^TLS with 127\.0\.0\.1:\d+: the server requires a client certificate \(TLS alert certificate_required\): pass --tls-cert and --tls-key$/,
      ),
    });
  });

  it('a certificate from a CA the server does not trust: unknown_ca when the server sends the alert (openssl s_server)', async () => {
    const server = await startOpensslServer(pki);
    try {
      await expect(
        A2AClient.connect(server.url, {
          tls: { cert: pki.strangerCert, key: pki.strangerKey, ca: pki.caCert },
        }),
      ).rejects.toMatchObject({
        code: A2AClientErrorCode.TlsConfig,
        message: expect.stringMatching(
          /the server does not trust the CA that issued the client certificate \(TLS alert unknown_ca\)/,
        ),
      });
    } finally {
      server.stop();
    }
  });

  it('a certificate the server refuses by hanging up (Node servers send no alert): said so', async () => {
    await expect(
      A2AClient.connect(agent.url, {
        tls: { cert: pki.strangerCert, key: pki.strangerKey, ca: pki.caCert },
      }),
    ).rejects.toMatchObject({
      code: A2AClientErrorCode.TlsConfig,
      message: expect.stringMatching(
        /closed the connection right after the TLS handshake: it most likely refused the client certificate/,
      ),
    });
  });

  it('a key that does not belong to the certificate: key mismatch, before any connection', async () => {
    const before = agent.requests.length;
    await expect(
      A2AClient.connect(agent.url, {
        tls: { cert: pki.clientCert, key: pki.strangerKey, ca: pki.caCert },
      }),
    ).rejects.toMatchObject({
      code: A2AClientErrorCode.TlsConfig,
      message: `the client certificate ${pki.clientCert} does not match the private key ${pki.strangerKey} (key mismatch)`,
    });
    expect(agent.requests.length).toBe(before);
  });

  it("the server's certificate from an unknown CA: named, with --tls-ca", async () => {
    await expect(
      A2AClient.connect(agent.url, { tls: { cert: pki.clientCert, key: pki.clientKey } }),
    ).rejects.toMatchObject({
      code: A2AClientErrorCode.TlsConfig,
      message: expect.stringMatching(
        /the server's certificate is not trusted \(SELF_SIGNED_CERT_IN_CHAIN\): pass its CA with --tls-ca/,
      ),
    });
  });
});
