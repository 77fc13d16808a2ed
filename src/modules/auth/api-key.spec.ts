import { createHmac } from 'node:crypto';
import {
  API_KEY_REJECTION_MESSAGES,
  ApiKeyError,
  ApiKeyErrorCode,
  ApiKeyRejection,
  ApiKeyVerification,
  generateKeySecret,
  issueApiKey,
  verifyApiKey,
} from './api-key';

const SECRET = 'unit-test-secret-0123456789-abcdefghijklmnop';
const NOW = new Date('2026-01-15T12:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;
const NONE: ReadonlySet<string> = new Set();

/** Signs arbitrary claims text the way the format says, independently of the code under test. */
function forge(prefix: string, claimsText: string, secret = SECRET): string {
  const signed = prefix + Buffer.from(claimsText, 'utf8').toString('base64url');
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`;
}

function claimsOf(key: string): Record<string, unknown> {
  const body = key.slice('sqk_live_'.length, key.indexOf('.'));
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
}

function codeOf(r: ApiKeyVerification): ApiKeyRejection | 'ok' {
  return r.ok ? 'ok' : r.code;
}

/** Verifies with {@link SECRET} at `at` against `revoked`. */
function verify(key: string | undefined, at = NOW, revoked = NONE): ApiKeyVerification {
  return verifyApiKey(key, SECRET, revoked, at);
}

describe('issueApiKey / verifyApiKey', () => {
  const { key, claims } = issueApiKey(SECRET, { label: 'Acme Corp', tier: 'pro', days: 7 }, NOW);

  it('issues a live key whose claims verify, with v=1, a 12-hex kid and Unix-second times', () => {
    expect(key).toMatch(/^sqk_live_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(claims).toEqual({
      v: 1,
      kid: expect.stringMatching(/^[0-9a-f]{12}$/),
      cus: 'Acme Corp',
      tier: 'pro',
      iat: NOW_S,
      exp: NOW_S + 7 * 86_400,
    });
    expect(claimsOf(key)).toEqual(claims);
    expect(verify(key)).toEqual({ ok: true, claims, live: true });
  });

  it('defaults to tier standard and 30 days; kids are random', () => {
    const a = issueApiKey(SECRET, { label: 'a' }, NOW).claims;
    const b = issueApiKey(SECRET, { label: 'a' }, NOW).claims;
    expect(a.tier).toBe('standard');
    expect(a.exp - a.iat).toBe(30 * 86_400);
    expect(a.kid).not.toBe(b.kid);
  });

  it('reports a test key as live=false', () => {
    const test = issueApiKey(SECRET, { label: 'a', test: true }, NOW);
    expect(test.key.startsWith('sqk_test_')).toBe(true);
    expect(verify(test.key)).toMatchObject({ ok: true, live: false });
  });

  it('signs the prefix: turning sqk_test_ into sqk_live_ breaks the signature', () => {
    const test = issueApiKey(SECRET, { label: 'a', test: true }, NOW).key;
    expect(codeOf(verify(test.replace('sqk_test_', 'sqk_live_')))).toBe(
      ApiKeyRejection.BadSignature,
    );
  });

  it('rejects a missing key', () => {
    expect(codeOf(verify(undefined))).toBe(ApiKeyRejection.Missing);
    expect(codeOf(verify(''))).toBe(ApiKeyRejection.Missing);
  });

  it.each([
    'garbage',
    'sk_live_abc.def',
    'SQK_LIVE_abc.def',
    'Bearer sqk_live_a.b',
    ' sqk_live_a.b',
  ])('rejects %p as an unrecognised format', (k) =>
    expect(codeOf(verify(k))).toBe(ApiKeyRejection.UnrecognisedFormat),
  );

  it.each([
    ['no dot', 'sqk_live_eyJ2IjoxfQ'],
    ['nothing after the prefix', 'sqk_live_'],
    ['two dots', `${key}.x`],
    ['bad base64url in the claims', key.replace('sqk_live_', 'sqk_live_!')],
    ['empty claims', `sqk_live_.${key.split('.')[1]}`],
    ['a short signature', key.slice(0, -4)],
  ])('rejects a key with %s as malformed', (_what, k) => {
    expect(codeOf(verify(k))).toBe(ApiKeyRejection.Malformed);
  });

  it('rejects a signature that differs only in unused low bits (canonical base64url only)', () => {
    const sig = key.split('.')[1];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig[sig.length - 1]);
    // the 43rd char carries 4 signature bits and 2 padding bits: flip a padding bit
    const twin = `${key.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(twin.split('.')[1], 'base64url')).toEqual(Buffer.from(sig, 'base64url'));
    expect(codeOf(verify(twin))).toBe(ApiKeyRejection.Malformed);
  });

  it('rejects every well-formed key when no secret is configured, after the format checks', () => {
    expect(codeOf(verifyApiKey(key, undefined, NONE, NOW))).toBe(ApiKeyRejection.NoSecret);
    expect(codeOf(verifyApiKey(key, '', NONE, NOW))).toBe(ApiKeyRejection.NoSecret);
    expect(codeOf(verifyApiKey('garbage', undefined, NONE, NOW))).toBe(
      ApiKeyRejection.UnrecognisedFormat,
    );
  });

  it('rejects a key with one claim character changed', () => {
    const i = 'sqk_live_'.length + 5;
    const tampered = key.slice(0, i) + (key[i] === 'A' ? 'B' : 'A') + key.slice(i + 1);
    expect(codeOf(verify(tampered))).toBe(ApiKeyRejection.BadSignature);
  });

  it('rejects a key signed with another secret', () => {
    expect(codeOf(verifyApiKey(key, generateKeySecret(), NONE, NOW))).toBe(
      ApiKeyRejection.BadSignature,
    );
  });

  it('rejects correctly signed claims with v=2 as an unsupported version', () => {
    const v2 = forge('sqk_live_', JSON.stringify({ ...claims, v: 2 }));
    expect(codeOf(verify(v2))).toBe(ApiKeyRejection.UnsupportedVersion);
  });

  it.each([
    ['not JSON', 'this is not json'],
    ['a JSON array', '[1]'],
    [
      'v as a string',
      JSON.stringify({ v: '1', kid: 'abcdefabcdef', cus: 'a', tier: 's', iat: 1, exp: 2 }),
    ],
    ['no kid', JSON.stringify({ v: 1, cus: 'a', tier: 's', iat: 1, exp: NOW_S + 60 })],
    [
      'exp as a string',
      JSON.stringify({ v: 1, kid: 'abcdefabcdef', cus: 'a', tier: 's', iat: 1, exp: 'x' }),
    ],
  ])('rejects correctly signed claims that are %s as unreadable', (_what, text) => {
    expect(codeOf(verify(forge('sqk_live_', text)))).toBe(ApiKeyRejection.UnreadableClaims);
  });

  it('never reads the claims of an unsigned key (bad signature wins over version and JSON)', () => {
    const other = 'another-secret-0123456789-abcdefghijklmnop';
    expect(codeOf(verify(forge('sqk_live_', JSON.stringify({ ...claims, v: 2 }), other)))).toBe(
      ApiKeyRejection.BadSignature,
    );
    expect(codeOf(verify(forge('sqk_live_', 'not json', other)))).toBe(
      ApiKeyRejection.BadSignature,
    );
  });

  it('rejects a revoked kid, before checking expiry', () => {
    const revoked = new Set(['000000000000', claims.kid]);
    expect(codeOf(verify(key, NOW, revoked))).toBe(ApiKeyRejection.Revoked);
    const late = new Date((claims.exp + 1) * 1000);
    expect(codeOf(verify(key, late, revoked))).toBe(ApiKeyRejection.Revoked);
  });

  it('expires at exp: valid one second before, rejected from exp on', () => {
    expect(verify(key, new Date((claims.exp - 1) * 1000)).ok).toBe(true);
    expect(codeOf(verify(key, new Date(claims.exp * 1000)))).toBe(ApiKeyRejection.Expired);
    const old = issueApiKey(
      SECRET,
      { label: 'old', days: 1 },
      new Date(NOW.getTime() - 2 * 86_400_000),
    );
    expect(codeOf(verify(old.key))).toBe(ApiKeyRejection.Expired);
  });

  it('gives each rejection its own human message', () => {
    const messages = Object.values(ApiKeyRejection).map((c) => API_KEY_REJECTION_MESSAGES[c]);
    expect(new Set(messages).size).toBe(Object.values(ApiKeyRejection).length);
    expect(verify(key, new Date(claims.exp * 1000))).toEqual({
      ok: false,
      code: ApiKeyRejection.Expired,
      message: 'API key has expired',
    });
  });
});

describe(issueApiKey.name, () => {
  it.each([
    ['days 0', { label: 'a', days: 0 }],
    ['days 3651', { label: 'a', days: 3651 }],
    ['days 1.5', { label: 'a', days: 1.5 }],
    ['an empty label', { label: '' }],
    ['a blank label', { label: '   ' }],
    ['a label with a newline', { label: 'a\nvalid: forged' }],
    ['a tier with a space', { label: 'a', tier: 'gold plus' }],
    ['an unknown scope', { label: 'a', scopes: ['harness', 'admin'] }],
  ])('refuses %s', (_what, opts) => {
    expect(() => issueApiKey(SECRET, opts, NOW)).toThrow(ApiKeyError);
  });

  it('accepts days 1 and 3650', () => {
    expect(issueApiKey(SECRET, { label: 'a', days: 3650 }, NOW).claims.exp).toBe(
      NOW_S + 3650 * 86_400,
    );
    expect(issueApiKey(SECRET, { label: 'a', days: 1 }, NOW).claims.exp).toBe(NOW_S + 86_400);
  });

  it('refuses a secret shorter than 32 chars without echoing it', () => {
    const short = 'short-secret-value';
    let err: unknown;
    try {
      issueApiKey(short, { label: 'a' }, NOW);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiKeyError);
    expect((err as ApiKeyError).code).toBe(ApiKeyErrorCode.InvalidOptions);
    expect((err as ApiKeyError).message).not.toContain(short);
  });
});

describe('API key scopes (issue #12)', () => {
  it('signs the scopes into the claims (deduplicated); verify returns them', () => {
    const { key, claims } = issueApiKey(
      SECRET,
      { label: 'ci', scopes: ['harness', 'harness'] },
      NOW,
    );
    expect(claims.scopes).toEqual(['harness']);
    expect(claimsOf(key).scopes).toEqual(['harness']);
    expect(verify(key)).toEqual({ ok: true, claims, live: true });
  });

  it('issues keys without scopes exactly as before (no scopes claim)', () => {
    expect('scopes' in claimsOf(issueApiKey(SECRET, { label: 'a' }, NOW).key)).toBe(false);
  });

  it('accepts an older key whose claims have no scopes: it verifies with none', () => {
    const old = forge(
      'sqk_live_',
      JSON.stringify({
        v: 1,
        kid: '0123456789ab',
        cus: 'old',
        tier: 'standard',
        iat: NOW_S,
        exp: NOW_S + 60,
      }),
    );
    const r = verify(old);
    expect(r.ok && r.claims.scopes).toBeUndefined();
  });

  it('rejects signed claims whose scopes are not a list of scope names', () => {
    const claims = {
      v: 1,
      kid: '0123456789ab',
      cus: 'x',
      tier: 'standard',
      iat: NOW_S,
      exp: NOW_S + 60,
    };
    expect(
      codeOf(verify(forge('sqk_live_', JSON.stringify({ ...claims, scopes: 'harness' })))),
    ).toBe(ApiKeyRejection.UnreadableClaims);
    expect(
      codeOf(verify(forge('sqk_live_', JSON.stringify({ ...claims, scopes: ['Harness Admin'] })))),
    ).toBe(ApiKeyRejection.UnreadableClaims);
  });
});

describe(generateKeySecret.name, () => {
  it('makes 64 base64url chars (48 random bytes), different each time', () => {
    const a = generateKeySecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(48);
    expect(generateKeySecret()).not.toBe(a);
  });
});
