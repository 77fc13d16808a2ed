import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueApiKey } from '../../src/modules/auth/api-key';
import { A2aKeysCommandsModule } from '../../src/modules/auth/commands/a2a-keys-commands.module';
import { MAIN_JS, startBuiltServer } from '../utils/built-server';
import { InProcessRun, runCommandInProcess } from '../utils/in-process-cli';

const CLI = join(__dirname, '../../dist/cli.js');
const SECRET = 'e2e-key-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const TOKEN = 'e2e-operator-token-0123456789';

/**
 * Runs `superqode a2a-keys …` in process (the CLI's `a2a-keys` feature module, nest-commander-testing)
 * with the signing secret and operator token set (`env` adds or, with undefined, removes variables).
 * Every run except `secret` asserts that neither the secret nor the token appears in stdout or stderr.
 */
async function keys(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<InProcessRun> {
  const run = await runCommandInProcess([A2aKeysCommandsModule], ['a2a-keys', ...args], {
    SUPERQODE_A2A_KEY_SECRET: SECRET,
    SUPERQODE_A2A_TOKEN: TOKEN,
    SUPERQODE_A2A_REVOKED_KEYS: undefined,
    SUPERQODE_A2A_HARNESS_ACCESS: undefined,
    SUPERQODE_A2A_EXPOSE_HARNESS: undefined,
    ...env,
  });
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

/**
 * Runs `node <script> …args` (the built CLI by default) in `dir` with only PATH and HOME (= `dir`)
 * plus `env`: the working directory's `.env` is the one read.
 */
function spawnIn(dir: string, env: Record<string, string> = {}) {
  return (script: string, ...args: string[]) =>
    spawnSync(process.execPath, [script, ...args], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 20_000,
      env: { PATH: process.env.PATH, HOME: dir, ...env },
    });
}

describe('superqode a2a-keys (in process, exit codes)', () => {
  it('secret prints one line of at least 64 base64url chars and a hint on stderr, exit 0', async () => {
    const r = await keys(['secret']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^[A-Za-z0-9_-]{64,}\n$/);
    expect(r.out).toMatch(/SUPERQODE_A2A_KEY_SECRET/);
  });

  it('issue prints key, id and expiry; verify accepts it as live, exit 0', async () => {
    const before = Date.now();
    const issued = await keys(['issue', 'acme', '--tier', 'pro', '--days', '7']);
    expect(issued.status).toBe(0);
    const { key, id, expires } = parseIssued(issued.stdout);
    expect(key).toMatch(/^sqk_live_/);
    const days = (Date.parse(expires) - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7.01);

    const v = await keys(['verify', key]);
    expect(v.status).toBe(0);
    expect(v.stdout).toBe(
      `valid: id=${id} customer=acme tier=pro scopes=none expires=${expires} (live)\n`,
    );
  });

  it('issue --scope harness (repeatable) signs the scope into the key; verify shows it (issue #12)', async () => {
    const issued = await keys(['issue', 'ci-bot', '--scope', 'harness', '--scope', 'harness']);
    expect(issued.status).toBe(0);
    const [head, scopes] = [
      issued.stdout.split('\n').slice(0, 3).join('\n') + '\n',
      issued.stdout.split('\n')[3],
    ];
    const { key, id } = parseIssued(head);
    expect(scopes).toBe('scopes: harness');
    const v = await keys(['verify', key]);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(
      new RegExp(`^valid: id=${id} customer=ci-bot tier=standard scopes=harness expires=`),
    );
  });

  it('refuses an unknown --scope with one line, exit 2', async () => {
    const r = await keys(['issue', 'acme', '--scope', 'admin']);
    expect(r.status).toBe(2);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.out).toMatch(/--scope must be one of: harness/);
  });

  it('--test-key issues a sqk_test_ key that verifies as test', async () => {
    const { key } = parseIssued((await keys(['issue', 'acme', '--test-key'])).stdout);
    expect(key).toMatch(/^sqk_test_/);
    const v = await keys(['verify', key]);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/tier=standard .*\(test\)\n$/);
  });

  it('rejects a tampered key with the reason, exit 1', async () => {
    const { key } = parseIssued((await keys(['issue', 'acme'])).stdout);
    const i = 'sqk_live_'.length + 3;
    const tampered = key.slice(0, i) + (key[i] === 'A' ? 'B' : 'A') + key.slice(i + 1);
    const r = await keys(['verify', tampered]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^rejected: API key signature does not match/);
  });

  it('rejects an expired key (issued in the past with the same secret), exit 1', async () => {
    const past = new Date(Date.now() - 3 * 86_400_000);
    const { key } = issueApiKey(SECRET, { label: 'old', days: 1 }, past);
    const r = await keys(['verify', key]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^rejected: .*expired/);
  });

  it('rejects a key whose id is listed in SUPERQODE_A2A_REVOKED_KEYS, exit 1', async () => {
    const { key, id } = parseIssued((await keys(['issue', 'acme'])).stdout);
    const r = await keys(['verify', key], { SUPERQODE_A2A_REVOKED_KEYS: `0123456789ab, ${id}` });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^rejected: .*revoked/);
  });

  it('reads a revocation list separated by spaces or newlines, in upper case, as the server does', async () => {
    const { key, id } = parseIssued((await keys(['issue', 'acme'])).stdout);
    for (const list of [`0123456789ab ${id}`, `0123456789AB\n${id.toUpperCase()}`]) {
      const r = await keys(['verify', key], { SUPERQODE_A2A_REVOKED_KEYS: list });
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/^rejected: .*revoked/);
    }
  });

  it('status names a revocation list that revokes nothing as invalid (the server refuses it), exit 1', async () => {
    const r = await keys(['status'], { SUPERQODE_A2A_REVOKED_KEYS: 'old-key;0123456789ab' });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /revoked key ids .*: invalid \(must be key ids \(12 hex digits, as `a2a-keys issue` prints them\) separated by commas or white space; entry 1 is not one; the server refuses to start\)\n/,
    );
    expect(r.stdout).toMatch(
      /server settings check .*: refused: Invalid configuration:\n +SUPERQODE_A2A_REVOKED_KEYS: must be key ids .* separated by commas or white space; entry 1 is not one\n/,
    );
  });

  it('status lists the ids a revocation list revokes, and never echoes an entry that is no id (a key pasted by mistake)', async () => {
    const { key, id } = parseIssued((await keys(['issue', 'acme'])).stdout);
    const listed = await keys(['status'], {
      SUPERQODE_A2A_REVOKED_KEYS: `${id.toUpperCase()}\n0123456789ab`,
    });
    expect(listed.stdout).toMatch(new RegExp(`revoked key ids .*: 2 \\(0123456789ab, ${id}\\)\n`));
    const pasted = await keys(['status'], { SUPERQODE_A2A_REVOKED_KEYS: `0123456789ab,${key}` });
    expect(pasted.status).toBe(1);
    expect(pasted.stdout).toMatch(/entry 2 is not one/);
    expect(pasted.out).not.toContain(key.slice('sqk_live_'.length, 30));
  });

  it('status escapes control characters of echoed values (a host cannot rewrite its report)', async () => {
    // The serve policy's refusal (ESC c: a terminal reset), then validation's (ESC [K: erase line)
    const r = await keys(['status'], {
      SUPERQODE_A2A_HOST: '10.9.9.9\rpasses\u001bc\nforged line',
    });
    expect(r.status).toBe(1);
    expect(r.stdout.includes('\r') || r.stdout.includes('\u001b')).toBe(false);
    expect(r.stdout).not.toMatch(/^forged line/m);
    expect(r.stdout).toMatch(
      /refused: Refusing to bind 10\.9\.9\.9\\u000dpasses\\u001bc\\nforged line: /,
    );
    const bracket = await keys(['status'], {
      SUPERQODE_A2A_HOST: '10.9.9.9\rpasses\u001b[K\nforged line',
    });
    expect(bracket.status).toBe(1);
    expect(bracket.stdout.includes('\r') || bracket.stdout.includes('\u001b')).toBe(false);
    expect(bracket.stdout).not.toMatch(/^forged line/m);
    expect(bracket.stdout).toMatch(/SUPERQODE_A2A_HOST=.*: brackets hold an IPv6 address only/);
  });

  it('status says when the server would refuse the harness access these settings give, exit 1', async () => {
    const r = await keys(['status'], {
      SUPERQODE_A2A_KEY_SECRET: undefined,
      SUPERQODE_A2A_HARNESS_ACCESS: 'keyed',
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /server settings check .*: refused: Refusing --harness-access keyed without SUPERQODE_A2A_KEY_SECRET/,
    );
    const bogus = await keys(['status'], { SUPERQODE_A2A_HARNESS_ACCESS: 'bogus\nfake line' });
    expect(bogus.status).toBe(1);
    expect(bogus.stdout).toMatch(
      /harness access .*: invalid \(must be one of: operator, keyed, anonymous; the server refuses to start\)\n/,
    );
    expect(bogus.stdout).not.toMatch(/^fake line/m);
  });

  it('issue and verify refuse a setting the server refuses, naming it, never its value; exit 1', async () => {
    const short = 'short-secret';
    const issue = await keys(['issue', 'acme'], { SUPERQODE_A2A_KEY_SECRET: short });
    expect(issue.status).toBe(1);
    expect(issue.out).toBe(
      'error: SUPERQODE_A2A_KEY_SECRET is invalid (must be at least 32 characters): the server refuses to start with it\n',
    );
    const { key } = parseIssued((await keys(['issue', 'acme'])).stdout);
    const verify = await keys(['verify', key], { SUPERQODE_A2A_REVOKED_KEYS: 'old-key' });
    expect(verify.status).toBe(1);
    expect(verify.out).toMatch(/^error: SUPERQODE_A2A_REVOKED_KEYS is invalid \(must be key ids/);
    expect(verify.stdout).toBe('');
  });

  it('rejects garbage as an unrecognised format, exit 1', async () => {
    const r = await keys(['verify', 'not-a-key']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^rejected: unrecognised API key format/);
  });

  it('with no secret: issue fails naming SUPERQODE_A2A_KEY_SECRET, verify rejects; exit 1', async () => {
    const { key } = parseIssued((await keys(['issue', 'acme'])).stdout);
    const issue = await keys(['issue', 'acme'], { SUPERQODE_A2A_KEY_SECRET: undefined });
    expect(issue.status).toBe(1);
    expect(issue.out.trim().split('\n')).toHaveLength(1);
    expect(issue.out).toMatch(/SUPERQODE_A2A_KEY_SECRET/);
    expect(issue.stdout).toBe('');

    const verify = await keys(['verify', key], { SUPERQODE_A2A_KEY_SECRET: undefined });
    expect(verify.status).toBe(1);
    expect(verify.stdout).toMatch(/^rejected: .*no signing secret/);
  });

  it.each(['0', '3651', 'abc', '1.5'])('refuses --days %s with one line, exit 2', async (days) => {
    const r = await keys(['issue', 'acme', '--days', days]);
    expect(r.status).toBe(2);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.out).toMatch(/--days must be a whole number from 1 to 3650/);
  });

  it('status reports configuration without values, exit 0', async () => {
    const r = await keys(['status'], { SUPERQODE_A2A_REVOKED_KEYS: 'aaaaaaaaaaaa,bbbbbbbbbbbb' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^settings: the environment/);
    expect(r.stdout).toMatch(/server settings check .*: passes\n$/);
    expect(r.stdout).toMatch(/signing secret .*: configured\n/);
    expect(r.stdout).toMatch(/revoked key ids .*: 2 \(aaaaaaaaaaaa, bbbbbbbbbbbb\)\n/);
    expect(r.stdout).toMatch(/operator token .*: configured\n/);
    expect(r.stdout).toMatch(/key scopes \(a2a-keys issue --scope\): harness\n/);
    expect(r.stdout).toMatch(/harness access \(SUPERQODE_A2A_HARNESS_ACCESS\): anonymous\n/);
    const keyed = await keys(['status'], { SUPERQODE_A2A_HARNESS_ACCESS: 'keyed' });
    expect(keyed.stdout).toMatch(/harness access .*: keyed \(keys need --scope harness\)\n/);

    const bare = await keys(['status'], {
      SUPERQODE_A2A_KEY_SECRET: undefined,
      SUPERQODE_A2A_TOKEN: undefined,
    });
    expect(bare.status).toBe(0);
    expect(bare.stdout).toMatch(/signing secret .*: not configured\n/);
    expect(bare.stdout).toMatch(/revoked key ids .*: 0\n/);
    expect(bare.stdout).toMatch(/operator token .*: not configured\n/);
  });
});

describe('superqode a2a-keys (built CLI, spawned smoke tests)', () => {
  /** `superqode a2a-keys …` on dist/cli.js with the secret set, `input` on its standard input. */
  function spawnKeys(...args: string[]): { status: number | null; stdout: string; out: string } {
    return spawnKeysWith('', ...args);
  }
  function spawnKeysWith(
    input: string,
    ...args: string[]
  ): { status: number | null; stdout: string; out: string } {
    const env = {
      ...process.env,
      SUPERQODE_A2A_LOG_LEVEL: 'error',
      SUPERQODE_A2A_KEY_SECRET: SECRET,
    };
    const r = spawnSync(process.execPath, [CLI, 'a2a-keys', ...args], {
      encoding: 'utf8',
      timeout: 20_000,
      env,
      input,
    });
    return { status: r.status, stdout: r.stdout, out: `${r.stdout}${r.stderr}` };
  }

  beforeAll(() => {
    if (!existsSync(CLI))
      throw new Error('dist/cli.js is missing: run `npm run build` (npm test does)');
  });

  it('issue then verify round-trips, exit 0', () => {
    const { key, id } = parseIssued(spawnKeys('issue', 'acme').stdout);
    const v = spawnKeys('verify', key);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(new RegExp(`^valid: id=${id} customer=acme `));
    expect(v.out).not.toContain(SECRET);
  });

  it('verify - reads the key from standard input (kept out of ps); no line there is a usage error', () => {
    const { key, id } = parseIssued(spawnKeys('issue', 'acme').stdout);
    const v = spawnKeysWith(`\n  ${key}  \nignored\n`, 'verify', '-');
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(new RegExp(`^valid: id=${id} customer=acme `));
    const tampered = spawnKeysWith(`${key.slice(0, -2)}xx`, 'verify', '-'); // no newline at the end
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toMatch(/^rejected: /);
    const none = spawnKeysWith(' \n', 'verify', '-');
    expect(none.status).toBe(2);
    expect(none.out).toBe('error: verify -: no key on standard input\n');
    const endless = spawnKeysWith('a'.repeat(100_000), 'verify', '-'); // read no further than 8,192
    expect(endless.status).toBe(2);
    expect(endless.out).toBe(
      'error: verify -: a line longer than 8192 characters on standard input\n',
    );
  });

  it('a refused flag value exits 2 with one line', () => {
    const r = spawnKeys('issue', 'acme', '--days', '0');
    expect(r.status).toBe(2);
    expect(r.out.trim().split('\n')).toHaveLength(1);
  });

  it('--env-file: issue, verify and status read the file named, as serve a2a --env-file does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-keys-envfile-'));
    try {
      const file = join(dir, 'prod.env');
      writeFileSync(file, `SUPERQODE_A2A_KEY_SECRET=${SECRET}\n`);
      const run = (...args: string[]) => spawnIn(dir)(CLI, 'a2a-keys', ...args);
      expect(run('issue', 'acme').status).toBe(1); // no ./.env here: no secret
      const { key, id } = parseIssued(run('issue', 'acme', '--env-file', file).stdout);
      const verified = run('verify', key, `--env-file=${file}`);
      expect(verified.status).toBe(0);
      expect(verified.stdout).toMatch(new RegExp(`^valid: id=${id} `));
      const status = run('status', '--env-file', file);
      expect(status.stdout).toContain(`settings: the environment, then ${file}\n`);
      expect(status.stdout).toMatch(/signing secret .*: configured\n/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an unreadable ./.env: secret still runs; status, issue and the server say so in one line, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-keys-envdir-'));
    try {
      mkdirSync(join(dir, '.env'));
      const run = spawnIn(dir, { SUPERQODE_A2A_PORT: '0' });
      expect(run(CLI, 'a2a-keys', 'secret').status).toBe(0);
      for (const args of [['status'], ['issue', 'acme']]) {
        const r = run(CLI, 'a2a-keys', ...args);
        expect(r.status).toBe(1);
        expect(r.stderr).toBe('error: ./.env: EISDIR: illegal operation on a directory, read\n');
      }
      const server = run(MAIN_JS);
      expect(server.status).toBe(1);
      const logged = `${server.stdout}${server.stderr}`.trim();
      expect(logged.split('\n')).toHaveLength(1);
      expect(JSON.parse(logged)).toMatchObject({ level: 'error', context: 'Main' });
      expect(logged).toMatch(/\.\/\.env: EISDIR/);
      // A link to a missing file is not "no .env": settings meant to lock the server down are gone.
      rmSync(join(dir, '.env'), { recursive: true });
      symlinkSync(join(dir, 'missing.env'), join(dir, '.env'));
      const linked = run(CLI, 'a2a-keys', 'status');
      expect(linked.status).toBe(1);
      expect(linked.stderr).toMatch(/^error: \.\/\.env: ENOENT/);
      expect(run(MAIN_JS).status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the settings the server reads from .env: a key it issues is accepted by the server started there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-keys-env-'));
    try {
      writeFileSync(
        join(dir, '.env'),
        `SUPERQODE_A2A_KEY_SECRET=${SECRET}\nSUPERQODE_A2A_ALLOW_ANONYMOUS=false\n` +
          'SUPERQODE_A2A_TOKEN=short\nSUPERQODE_A2A_EXPOSE_HARNESS=true\n',
      );
      // Only PATH and HOME: the secret is in the file alone; a blank variable does not hide it.
      const inDir = spawnIn(dir, { SUPERQODE_A2A_KEY_SECRET: ' ' });
      const run = (...args: string[]) => inDir(CLI, 'a2a-keys', ...args);
      const status = run('status');
      expect(status.status).toBe(1); // the server would refuse the short token
      expect(status.stdout).toMatch(
        /server settings check .*: refused: Invalid configuration:\n +SUPERQODE_A2A_TOKEN: must be at least 16 characters\n/,
      );
      expect(status.stdout).toContain(`settings: the environment, then ${join(dir, '.env')}\n`);
      expect(status.stdout).toMatch(/signing secret .*: configured\n/);
      // The short token in the file is invalid: reported (the server would refuse it), not hidden.
      expect(status.stdout).toMatch(
        /operator token .*: invalid \(must be at least 16 characters; the server refuses to start\)\n/,
      );
      expect(status.stdout).toMatch(/harness access .*: operator\n/);
      expect(`${status.stdout}${status.stderr}`).not.toContain(SECRET);

      writeFileSync(
        join(dir, '.env'),
        `SUPERQODE_A2A_KEY_SECRET=${SECRET}\nSUPERQODE_A2A_ALLOW_ANONYMOUS=false\n`,
      );
      const { key } = parseIssued(run('issue', 'acme').stdout);
      const server = await startBuiltServer({}, { dir });
      try {
        const send = (authorization?: string) =>
          fetch(`${server.url}/message:send`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'a2a-version': '1.0',
              ...(authorization ? { authorization } : {}),
            },
            body: JSON.stringify({
              message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'which harness?' }] },
            }),
          });
        expect((await send()).status).toBe(401);
        const answered = await send(`Bearer ${key}`);
        expect(answered.status).toBe(200);
        expect(JSON.stringify(await answered.json())).toContain('TASK_STATE_COMPLETED');
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
