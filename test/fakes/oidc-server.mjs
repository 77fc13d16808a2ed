// A real OpenID provider (oidc-provider 9, ESM-only) for the A2A client's OAuth e2e tests, run in
// a child process: `node test/fakes/oidc-server.mjs`. Listens on 127.0.0.1 (port chosen by the
// OS) and prints one JSON line `{"issuer": "..."}` on stdout when ready.
//
// Clients: cc-client/cc-secret (client credentials), device-client (public, device code +
// refresh), pkce-client (public, authorization code + refresh, redirect on localhost:19876).
// Dynamic registration is open. Test-only helpers (never in a real provider):
//   POST /__test/approve?user_code=X   approve a pending device code as user "alice"
//   GET  /__test/active?token=X        {"active": bool, "scope": "..."} for an access or refresh token
// Interactions (login + consent) are approved automatically as "alice".
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const REDIRECT = 'http://localhost:19876/a2a/oauth/callback';
const REDIRECT_TEST = 'http://localhost:19877/a2a/oauth/callback'; // library tests (redirectUri option)

const provider = new Provider(issuer, {
  clients: [
    { client_id: 'cc-client', client_secret: 'cc-secret', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
    { client_id: 'device-client', token_endpoint_auth_method: 'none', application_type: 'native', grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'], redirect_uris: [], response_types: [] },
    { client_id: 'pkce-client', token_endpoint_auth_method: 'none', application_type: 'native', grant_types: ['authorization_code', 'refresh_token'], redirect_uris: [REDIRECT, REDIRECT_TEST], response_types: ['code'] },
  ],
  features: {
    clientCredentials: { enabled: true },
    deviceFlow: { enabled: true },
    revocation: { enabled: true },
    introspection: { enabled: true },
    registration: { enabled: true },
    devInteractions: { enabled: false },
  },
  scopes: ['openid', 'offline_access', 'a2a:call', 'a2a:admin'],
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  ttl: { AccessToken: Number(process.env.OIDC_AT_TTL ?? 3600), ClientCredentials: Number(process.env.OIDC_AT_TTL ?? 3600) },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  pkce: { required: () => true },
});

async function approveDevice(userCode) {
  const code = await provider.DeviceCode.findByUserCode(userCode.replace(/[^A-Za-z0-9]/g, '').toUpperCase());
  if (!code) return false;
  const grant = new provider.Grant({ accountId: 'alice', clientId: code.clientId });
  const scope = code.params?.scope ?? code.scope;
  if (scope) grant.addOIDCScope(scope);
  code.scope = scope; // what the user approved (a real deployment's confirm page sets it)
  code.accountId = 'alice';
  code.grantId = await grant.save();
  code.authTime = Math.floor(Date.now() / 1000);
  await code.save();
  return true;
}

async function finishInteraction(req, res) {
  const details = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId: 'alice', clientId: details.params.client_id });
  if (details.params.scope) grant.addOIDCScope(details.params.scope);
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId: 'alice' }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

async function active(token) {
  const found = (await provider.AccessToken.find(token)) ?? (await provider.ClientCredentials.find(token)) ?? (await provider.RefreshToken.find(token));
  return { active: Boolean(found && !found.isExpired), scope: found?.scope ?? '' };
}

const callback = provider.callback();
server.on('request', (req, res) => {
  const url = new URL(req.url, issuer);
  const json = (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  if (url.pathname === '/__test/approve') return void approveDevice(url.searchParams.get('user_code')).then((ok) => json({ ok }));
  if (url.pathname === '/__test/active') return void active(url.searchParams.get('token')).then(json);
  if (url.pathname.startsWith('/interaction/')) return void finishInteraction(req, res).catch((e) => res.writeHead(500).end(String(e)));
  callback(req, res);
});
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
