import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { issueApiKey } from '../../src/modules/auth/api-key';

const CLI = join(__dirname, '../../dist/cli.js');
const SECRET = 'e2e-key-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const TOKEN = 'e2e-operator-token-0123456789';

interface Run {
  status: number | null;
  stdout: string;
  out: string;
}

/**
 * Runs `superqode a2a-keys …` on the built CLI with the signing secret and operator token set
 * (`env` adds or, with undefined, removes variables). Every run except `secret` asserts that
 * neither the secret nor the token appears in stdout or stderr.
 */
function keys(args: string[], env: Record<string, string | undefined> = {}): Run {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    SUPERQODE_A2A_LOG_LEVEL: 'error',
    SUPERQODE_A2A_KEY_SECRET: SECRET,
    SUPERQODE_A2A_TOKEN: TOKEN,
    SUPERQODE_A2A_REVOKED_KEYS: undefined,
    ...env,
  };
  const defined = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
  const r = spawnSync(process.execPath, [CLI, 'a2a-keys', ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: defined,
  });
  const run = { status: r.status, stdout: r.stdout, out: `${r.stdout}${r.stderr}` };
  if (args[0] !== 'secret') {
    expect(run.out).not.toContain(SECRET);
    expect(run.out).not.toContain(TOKEN);
  }
  return run;
}

/** `issue` output → its key, id and expiry. */
function parseIssued(stdout: string): { key: string; id: string; expires: string } {
  const m = /^key: (\S+)\nid: ([0-9a-f]{12})\nexpires: (\S+)\n$/.exec(stdout);
  if (!m) throw new Error(`unexpected issue output: ${stdout}`);
  return { key: m[1], id: m[2], expires: m[3] };
}

describe('superqode a2a-keys (built CLI, exit codes)', () => {
  beforeAll(() => {
    if (!existsSync(CLI))
      throw new Error('dist/cli.js is missing: run `npm run build` (npm test does)');
  });

  it('secret prints one line of at least 64 base64url chars and a hint on stderr, exit 0', () => {
    const r = keys(['secret']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^[A-Za-z0-9_-]{64,}\n$/);
    expect(r.out).toMatch(/SUPERQODE_A2A_KEY_SECRET/);
  });

  it('issue prints key, id and expiry; verify accepts it as live, exit 0', () => {
    const before = Date.now();
    const issued = keys(['issue', 'acme', '--tier', 'pro', '--days', '7']);
    expect(issued.status).toBe(0);
    const { key, id, expires } = parseIssued(issued.stdout);
    expect(key).toMatch(/^sqk_live_/);
    const days = (Date.parse(expires) - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7.01);

    const v = keys(['verify', key]);
    expect(v.status).toBe(0);
    expect(v.stdout).toBe(`valid: id=${id} customer=acme tier=pro scopes=none expires=${expires} (live)\n`);
  });

  it('issue --scope harness (repeatable) signs the scope into the key; verify shows it (issue #12)', () => {
    const issued = keys(['issue', 'ci-bot', '--scope', 'harness', '--scope', 'harness']);
    expect(issued.status).toBe(0);
    const [head, scopes] = [issued.stdout.split('\n').slice(0, 3).join('\n') + '\n', issued.stdout.split('\n')[3]];
    const { key, id } = parseIssued(head);
    expect(scopes).toBe('scopes: harness');
    const v = keys(['verify', key]);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(new RegExp(`^valid: id=${id} customer=ci-bot tier=standard scopes=harness expires=`));
  });

  it('refuses an unknown --scope with one line, exit 2', () => {
    const r = keys(['issue', 'acme', '--scope', 'admin']);
    expect(r.status).toBe(2);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.out).toMatch(/--scope must be one of: harness/);
  });

  it('--test-key issues a sqk_test_ key that verifies as test', () => {
    const { key } = parseIssued(keys(['issue', 'acme', '--test-key']).stdout);
    expect(key).toMatch(/^sqk_test_/);
    const v = keys(['verify', key]);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/tier=standard .*\(test\)\n$/);
  });

  it('rejects a tampered key with the reason, exit 1', () => {
    const { key } = parseIssued(keys(['issue', 'acme']).stdout);
    const i = 'sqk_live_'.length + 3;
    const tampered = key.slice(0, i) + (key[i] === 'A' ? 'B' : 'A') + key.slice(i + 1);
    const r = keys(['verify', tampered]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^rejected: API key signature does not match/);
  });

  it('rejects an expired key (issued in the past with the same secret), exit 1', () => {
    const past = new Date(Date.now() - 3 * 86_400_000);
    const { key } = issueApiKey(SECRET, { label: 'old', days: 1 }, past);
    const r = keys(['verify', key]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^rejected: .*expired/);
  });

  it('rejects a key whose id is listed in SUPERQODE_A2A_REVOKED_KEYS, exit 1', () => {
    const { key, id } = parseIssued(keys(['issue', 'acme']).stdout);
    const r = keys(['verify', key], { SUPERQODE_A2A_REVOKED_KEYS: `0123456789ab, ${id}` });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^rejected: .*revoked/);
  });

  it('rejects garbage as an unrecognised format, exit 1', () => {
    const r = keys(['verify', 'not-a-key']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^rejected: unrecognised API key format/);
  });

  it('with no secret: issue fails naming SUPERQODE_A2A_KEY_SECRET, verify rejects; exit 1', () => {
    const { key } = parseIssued(keys(['issue', 'acme']).stdout);
    const issue = keys(['issue', 'acme'], { SUPERQODE_A2A_KEY_SECRET: undefined });
    expect(issue.status).toBe(1);
    expect(issue.out.trim().split('\n')).toHaveLength(1);
    expect(issue.out).toMatch(/SUPERQODE_A2A_KEY_SECRET/);
    expect(issue.stdout).toBe('');

    const verify = keys(['verify', key], { SUPERQODE_A2A_KEY_SECRET: undefined });
    expect(verify.status).toBe(1);
    expect(verify.stdout).toMatch(/^rejected: .*no signing secret/);
  });

  it.each(['0', '3651', 'abc', '1.5'])('refuses --days %s with one line, exit 2', (days) => {
    const r = keys(['issue', 'acme', '--days', days]);
    expect(r.status).toBe(2);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.out).toMatch(/--days must be a whole number from 1 to 3650/);
  });

  it('status reports configuration without values, exit 0', () => {
    const r = keys(['status'], { SUPERQODE_A2A_REVOKED_KEYS: 'aaaaaaaaaaaa,bbbbbbbbbbbb' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/signing secret .*: configured\n/);
    expect(r.stdout).toMatch(/revoked key ids .*: 2\n/);
    expect(r.stdout).toMatch(/operator token .*: configured\n/);
    expect(r.stdout).toMatch(/key scopes \(a2a-keys issue --scope\): harness\n/);
    expect(r.stdout).toMatch(/harness access \(SUPERQODE_A2A_HARNESS_ACCESS\): anonymous\n/);
    const keyed = keys(['status'], { SUPERQODE_A2A_HARNESS_ACCESS: 'keyed' });
    expect(keyed.stdout).toMatch(/harness access .*: keyed \(keys need --scope harness\)\n/);

    const bare = keys(['status'], {
      SUPERQODE_A2A_KEY_SECRET: undefined,
      SUPERQODE_A2A_TOKEN: undefined,
    });
    expect(bare.status).toBe(0);
    expect(bare.stdout).toMatch(/signing secret .*: not configured\n/);
    expect(bare.stdout).toMatch(/revoked key ids .*: 0\n/);
    expect(bare.stdout).toMatch(/operator token .*: not configured\n/);
  });
});
