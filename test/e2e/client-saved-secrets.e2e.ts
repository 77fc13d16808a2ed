import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { reachableKeyring } from '../../src/modules/client/connection-secrets';
import { superqodeInProcess, tempHome } from '../fakes/client-cli';
import { aV1Card, FakeAgent, startFakeAgent } from '../fakes/client-fake-agent';

const TOKEN = 'saved-secret-token-0123456789';
const KEYRING = reachableKeyring();

describe('Saved connection tokens: OS keyring when reachable, else the 0600 file (issue #17)', () => {
  let agent: FakeAgent;
  let home: string;
  const run = (args: string[], store?: string) =>
    superqodeInProcess(args, { home, env: store ? { SUPERQODE_A2A_SECRET_STORE: store } : {} });
  const file = () => join(home, '.superqode/a2a.json');
  const saved = () => JSON.parse(readFileSync(file(), 'utf8')).connections;

  beforeAll(async () => {
    agent = await startFakeAgent({
      card: (b) =>
        aV1Card([{ url: b, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], {
          securitySchemes: { b: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
        }),
      auth: (q) => q.headers.authorization === `Bearer ${TOKEN}`,
    });
  });
  beforeEach(() => {
    home = tempHome();
  });
  afterAll(() => agent.close());

  it('file fallback: the token is in a 0600 file, a2a list never prints it, a2a remove forgets it', async () => {
    const s = await run(['connect', 'a2a', agent.url, '--token', TOKEN, '--save', 'f1'], 'file');
    expect(s.code).toBe(0);
    expect(saved().f1.token).toBe(TOKEN);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    const list = await run(['a2a', 'list']);
    expect(list.stdout).toContain('f1  ');
    expect(list.stdout).toContain('token saved in the file');
    const json = await run(['a2a', 'list', '--json']);
    expect(list.all + json.all).not.toContain(TOKEN);
    expect((await run(['a2a', 'call', 'f1', 'hi'], 'file')).code).toBe(0);
    const removed = await run(['a2a', 'remove', 'f1']);
    expect(removed.code).toBe(0);
    expect(saved().f1).toBeUndefined();
    const again = await run(['a2a', 'remove', 'f1']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no saved connection "f1"');
  });

  (KEYRING ? it : it.skip)(
    'keyring: the file keeps no token; calls read it back; remove deletes it',
    async () => {
      const s = await run(
        ['connect', 'a2a', agent.url, '--token', TOKEN, '--save', 'k1'],
        'keyring',
      );
      expect(s.code).toBe(0);
      expect(saved().k1.token).toBeUndefined();
      expect(saved().k1.tokenIn).toBe('keyring');
      expect(readFileSync(file(), 'utf8')).not.toContain(TOKEN);
      expect((await run(['a2a', 'list'])).stdout).toContain('token in the OS keyring');
      expect((await run(['a2a', 'call', 'k1', 'hi'])).code).toBe(0);
      expect((await run(['a2a', 'remove', 'k1'])).code).toBe(0);
      expect(new KEYRING!.Entry('superqode-a2a-connection', 'k1').getPassword() ?? null).toBeNull();
    },
  );

  (KEYRING ? it.skip : it)(
    'SUPERQODE_A2A_SECRET_STORE=keyring without a reachable keyring fails, saving nothing',
    async () => {
      const s = await run(
        ['connect', 'a2a', agent.url, '--token', TOKEN, '--save', 'k2'],
        'keyring',
      );
      expect(s.code).toBe(1);
      expect(s.stderr).toContain(
        'the OS keyring is not reachable here (SUPERQODE_A2A_SECRET_STORE=keyring)',
      );
      expect(s.all).not.toContain(TOKEN);
    },
  );
});
