import { aKeySecret, OPERATOR_TOKEN } from '../fixtures/credentials';
import { aJsonRpcRequest, aLegacyMessage, aMessage } from '../fixtures/builders';
import { RawSocketReply as RawReply, rawRequest } from '../utils/raw-request';
import { TestServer, startTestServer } from '../utils/test-app';

/** One binding's SendMessage: path, headers and body (JSON-RPC request id 7). */
const BINDINGS: Record<string, { path: string; headers: [string, string][]; body: () => string }> =
  {
    'jsonrpc-1.0': {
      path: '/',
      headers: [
        ['Content-Type', 'application/json'],
        ['A2A-Version', '1.0'],
      ],
      body: () =>
        JSON.stringify(
          aJsonRpcRequest('SendMessage', { message: aMessage('which harness for rust') }, 7),
        ),
    },
    'jsonrpc-0.3': {
      path: '/',
      headers: [['Content-Type', 'application/json']],
      body: () =>
        JSON.stringify(
          aJsonRpcRequest('message/send', { message: aLegacyMessage('which harness for rust') }, 7),
        ),
    },
    rest: {
      path: '/message:send',
      headers: [
        ['Content-Type', 'application/json'],
        ['A2A-Version', '1.0'],
      ],
      body: () => JSON.stringify({ message: aMessage('which harness for rust') }),
    },
  };

const LONG = 'x'.repeat(8192);
/** Odd credentials: [name, Authorization header or none, query string, status, credential text to never echo]. */
const ODD: [string, string | undefined, string, number, string][] = [
  [
    'a token that is not an sqk_ key',
    'Bearer definitely-not-a-token',
    '',
    401,
    'definitely-not-a-token',
  ],
  ['a unicode token', 'Bearer ключ-🔑…', '', 401, 'ключ'],
  ['an 8 KB token', `Bearer ${LONG}`, '', 401, LONG.slice(0, 64)],
  ['a unicode sqk_ key', 'Bearer sqk_live_ü…', '', 401, 'sqk_live_ü'],
  ['a non-Bearer scheme', 'Basic dXNlcjpwYXNz', '', 401, 'dXNlcjpwYXNz'],
  ['Bearer without a credential', 'Bearer', '', 401, 'Bearer x'],
  ['an access_token parameter', undefined, '?access_token=not-a-key-123', 401, 'not-a-key-123'],
  ['a unicode access_token', undefined, '?access_token=%E2%80%A6%D0%BA', 401, '…к'],
  ['an empty access_token', undefined, '?access_token=', 401, 'Bearer x'],
  ['a repeated access_token', undefined, '?access_token=aaaa-1&access_token=bbbb-2', 400, 'aaaa-1'],
  [
    'a credential in the header and the query',
    'Bearer header-cred-1',
    '?access_token=query-cred-2',
    400,
    'query-cred-2',
  ],
];

/** Every header value is visible ASCII or space (RFC 9110 §5.5 field-vchar; RFC 6750 §3 error_description). */
function expectAsciiHeaders(r: RawReply): void {
  for (const [name, value] of Object.entries(r.headers))
    expect(`${name}: ${value}`).toMatch(/^[\x20-\x7e]*$/);
}

/** The binding's A2A error shape for a 400/401 rejection. */
function expectA2aShape(binding: string, r: RawReply, status: number): void {
  if (binding === 'rest') {
    expect(r.body.error).toMatchObject({
      code: status,
      status: status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT',
    });
  } else {
    // The request id was readable, so the envelope echoes it (JSON-RPC 2.0 §5; issue #11.8).
    expect(r.body).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: status === 401 ? -32040 : -32600 },
    });
  }
  expect(typeof r.body.error.message).toBe('string');
  expect(r.body.error.message.length).toBeGreaterThan(10);
}

describe.each([
  ['without --token (API keys only)', { SUPERQODE_A2A_KEY_SECRET: aKeySecret() }],
  [
    'with --token and API keys',
    { SUPERQODE_A2A_KEY_SECRET: aKeySecret(), SUPERQODE_A2A_TOKEN: OPERATOR_TOKEN },
  ],
])('Odd credentials on a server %s (issue #11.1; RFC 6750 §2, §3)', (_name, env) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(env);
  });
  afterAll(() => server.close());

  describe.each(Object.keys(BINDINGS))('%s', (binding) => {
    it.each(ODD)(
      '%s: a clean 400/401 with an ASCII-safe challenge, in A2A shape, never echoing the credential',
      async (_n, authorization, query, status, secret) => {
        const b = BINDINGS[binding];
        const headers: [string, string][] = [...b.headers];
        if (authorization !== undefined) headers.push(['Authorization', authorization]);
        const r = await rawRequest(server.url, {
          path: `${b.path}${query}`,
          headers,
          body: b.body(),
        });
        expect(r.status).toBe(status);
        expectAsciiHeaders(r);
        expect(r.headers['www-authenticate']).toMatch(
          new RegExp(
            `^Bearer realm="superqode-a2a", error="${status === 400 ? 'invalid_request' : 'invalid_token'}", error_description="[^"]+"$`,
          ),
        );
        expectA2aShape(binding, r, status);
        expect(r.text).not.toContain(secret);
        expect(r.headers['www-authenticate']).not.toContain(secret.slice(0, 12));
      },
    );
  });
});

describe('Odd credentials past the failed-authentication budget (issues #11.1, #11.5)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      SUPERQODE_A2A_KEY_SECRET: aKeySecret(),
      SUPERQODE_A2A_AUTH_FAILURES_PER_MINUTE: 1,
    });
  });
  afterAll(() => server.close());

  it.each(Object.keys(BINDINGS))(
    '%s: every odd credential gets a 429 with Retry-After, ASCII headers and the A2A shape',
    async (binding) => {
      const b = BINDINGS[binding];
      await rawRequest(server.url, {
        path: b.path,
        headers: [...b.headers, ['Authorization', 'Bearer spend-the-budget']],
        body: b.body(),
      });
      for (const [, authorization, query, , secret] of ODD) {
        const headers: [string, string][] = [...b.headers];
        if (authorization !== undefined) headers.push(['Authorization', authorization]);
        const r = await rawRequest(server.url, {
          path: `${b.path}${query}`,
          headers,
          body: b.body(),
        });
        expect(r.status).toBe(429);
        expectAsciiHeaders(r);
        expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        if (binding === 'rest')
          expect(r.body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
        else expect(r.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32029 } });
        expect(r.text).not.toContain(secret);
      }
    },
  );
});
