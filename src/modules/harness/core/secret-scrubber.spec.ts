import { DeltaScrubber, REDACTED, SecretScrubber, secretValuesFromEnv } from './secret-scrubber';

describe(SecretScrubber.name, () => {
  const scrubber = new SecretScrubber([
    'tok-0123456789',
    'short',
    undefined,
    'tok-0123456789-long',
  ]);

  it('replaces every value, longest first, and ignores values under 8 characters', () => {
    expect(scrubber.scrub('a tok-0123456789-long b tok-0123456789 short')).toBe(
      `a ${REDACTED} b ${REDACTED} short`,
    );
  });

  it('scrubs every string of event data, keys included', () => {
    expect(
      scrubber.scrubDeep({ output: 'x tok-0123456789', n: 1, list: [{ 'tok-0123456789': true }] }),
    ).toEqual({ output: `x ${REDACTED}`, n: 1, list: [{ [REDACTED]: true }] });
  });

  it('catches a secret split across stream chunks', () => {
    const deltas = new DeltaScrubber(scrubber);
    const out = ['the key is tok-01', '23456', '789 and more', ''].map((c) => deltas.push(c));
    expect(out.join('') + deltas.flush()).toBe(`the key is ${REDACTED} and more`);
    expect(out[0]).toBe('the key is ');
  });
});

describe(secretValuesFromEnv.name, () => {
  it('takes secret-looking names and URLs with a password, not ordinary variables', () => {
    expect(
      secretValuesFromEnv({
        GITHUB_TOKEN: 'ghp_x',
        DB_PASS: 'hunter22',
        MY_API_KEY: 'k',
        DATABASE_URL: 'postgres://u:p@h/db',
        CACHE: 'redis://user:pw@cache:6379',
        PWD: '/home/me/project',
        HOME: '/home/me',
        PATH: '/usr/bin',
      }),
    ).toEqual(['ghp_x', 'hunter22', 'k', 'postgres://u:p@h/db', 'redis://user:pw@cache:6379']);
  });
});
