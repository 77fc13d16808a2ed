import {
  assertBindAllowed,
  effectiveHarnessAccess,
  isLoopbackHost,
  portChosenAtStart,
  trustedProxyHops,
} from './a2a.config';
import { validateEnv, validateEnvVariables } from './env.schema';
import { loadEnv } from './load-env';

describe('remote-bind policy', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', 'localhost'])('%s is loopback', (h) =>
    expect(isLoopbackHost(h)).toBe(true),
  );
  it.each(['0.0.0.0', '10.0.0.1', '::', 'example.com'])('%s is not loopback', (h) =>
    expect(isLoopbackHost(h)).toBe(false),
  );

  it('refuses a non-loopback host without allowRemote, naming the flag', () => {
    expect(() => assertBindAllowed('0.0.0.0', false)).toThrow(/--allow-remote/);
    expect(() => assertBindAllowed('0.0.0.0', true)).not.toThrow();
  });

  it('the port is chosen at start only for port 0 without a public URL', () => {
    const env = (port: number, url?: string) => ({
      SUPERQODE_A2A_PORT: port,
      SUPERQODE_A2A_PUBLIC_URL: url,
    });
    expect(portChosenAtStart(env(0))).toBe(true);
    expect(portChosenAtStart(env(0, 'https://agent.example.com'))).toBe(false);
    expect(portChosenAtStart(env(8000))).toBe(false);
  });

  it('trusts no proxy hop by default, on remote binds too (issue #11.7); the setting otherwise', () => {
    expect(trustedProxyHops(undefined, true)).toBe(0);
    expect(trustedProxyHops(undefined, false)).toBe(0);
    expect(trustedProxyHops(3, false)).toBe(3);
  });
});

describe(validateEnv.name, () => {
  it('applies defaults', () => {
    expect(validateEnv({})).toMatchObject({
      SUPERQODE_A2A_PORT: 8000,
      SUPERQODE_A2A_HOST: '127.0.0.1',
      SUPERQODE_A2A_LEGACY_V03: true,
    });
  });
  it('takes an IPv6 bind address written as in a URL ([::1]) as the bare address listen() takes', () => {
    const env = validateEnv({
      SUPERQODE_A2A_HOST: ' [::1] ',
      SUPERQODE_A2A_METRICS_HOST: '[::1]',
    });
    expect([env.SUPERQODE_A2A_HOST, env.SUPERQODE_A2A_METRICS_HOST]).toEqual(['::1', '::1']);
    expect(validateEnv({ SUPERQODE_A2A_HOST: '::1' }).SUPERQODE_A2A_HOST).toBe('::1');
    // every spelling of ::1 is the loopback address the bind policy knows
    for (const spelt of ['[0:0:0:0:0:0:0:1]', '0:0:0:0:0:0:0:1', '[::0001]'])
      expect(validateEnv({ SUPERQODE_A2A_HOST: spelt }).SUPERQODE_A2A_HOST).toBe('::1');
    for (const odd of ['[]', '[::1', '::1]', '[[::1]]', '[::1]:8000', '[127.0.0.1]', '[localhost]'])
      expect(() => validateEnv({ SUPERQODE_A2A_HOST: odd })).toThrow(
        /SUPERQODE_A2A_HOST.*brackets hold an IPv6 address only/,
      );
  });
  it('names each invalid variable', () => {
    expect(() =>
      validateEnv({ SUPERQODE_A2A_PORT: '70000', SUPERQODE_A2A_TOKEN: 'short' }),
    ).toThrow(/SUPERQODE_A2A_PORT[\s\S]*SUPERQODE_A2A_TOKEN: must be at least 16 characters/);
  });
  it('takes an empty or blank value for unset: the default applies, no limit turns off', () => {
    const blank = validateEnv({
      SUPERQODE_A2A_PORT: '',
      SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: ' ',
      SUPERQODE_A2A_MAX_CONNECTIONS_PER_ADDRESS: '',
      SUPERQODE_A2A_TASK_TTL_DAYS: '\t',
      SUPERQODE_A2A_HOST: '',
      SUPERQODE_A2A_TOKEN: '',
      SUPERQODE_A2A_HEAP_GROWTH_PERCENT: '',
    });
    const defaults = validateEnv({});
    expect(blank).toEqual(defaults);
    expect(blank).toMatchObject({
      SUPERQODE_A2A_PORT: 8000,
      SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: 10,
      SUPERQODE_A2A_MAX_CONNECTIONS_PER_ADDRESS: 64,
      SUPERQODE_A2A_TASK_TTL_DAYS: 30,
    });
    expect(blank.SUPERQODE_A2A_TOKEN).toBeUndefined();
    expect(blank.SUPERQODE_A2A_HEAP_GROWTH_PERCENT).toBeUndefined();
  });
  it('a blank flag or option hides nothing: the environment value applies', () => {
    process.env.SUPERQODE_A2A_ANONYMOUS_PER_MINUTE = '4';
    try {
      expect(
        loadEnv({ SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: ' ' }).SUPERQODE_A2A_ANONYMOUS_PER_MINUTE,
      ).toBe(4);
    } finally {
      delete process.env.SUPERQODE_A2A_ANONYMOUS_PER_MINUTE;
    }
  });
  it('never echoes a secret value in its errors', () => {
    try {
      validateEnv({ SUPERQODE_A2A_KEY_SECRET: 'tooshort-secret' });
    } catch (err) {
      expect((err as Error).message).not.toContain('tooshort-secret');
    }
    expect.assertions(1);
  });
});

describe(effectiveHarnessAccess.name, () => {
  it('is the setting when given, else operator with --expose-harness and anonymous without (issue #12)', () => {
    expect(effectiveHarnessAccess(undefined, false)).toBe('anonymous');
    expect(effectiveHarnessAccess(undefined, true)).toBe('operator');
    expect(effectiveHarnessAccess('keyed', true)).toBe('keyed');
    expect(effectiveHarnessAccess('anonymous', true)).toBe('anonymous');
  });
});

describe(validateEnvVariables.name, () => {
  it('validates only the names given, each on its own: values as validateEnv gives them, problems without values', () => {
    const names = [
      'SUPERQODE_A2A_TOKEN',
      'SUPERQODE_A2A_EXPOSE_HARNESS',
      'SUPERQODE_A2A_PORT',
    ] as const;
    const read = validateEnvVariables(names, {
      SUPERQODE_A2A_TOKEN: 'too-short',
      SUPERQODE_A2A_EXPOSE_HARNESS: 'true',
      SUPERQODE_A2A_PORT: ' ',
      SUPERQODE_A2A_HOST: 'not checked: not named',
    });
    expect(read.values).toEqual({
      SUPERQODE_A2A_TOKEN: 'too-short',
      SUPERQODE_A2A_EXPOSE_HARNESS: true,
      SUPERQODE_A2A_PORT: validateEnv({}).SUPERQODE_A2A_PORT,
    });
    expect(read.problems).toEqual({ SUPERQODE_A2A_TOKEN: 'must be at least 16 characters' });
  });
});

describe('SUPERQODE_A2A_REVOKED_KEYS', () => {
  const revoked = (v: string) =>
    validateEnv({ SUPERQODE_A2A_REVOKED_KEYS: v }).SUPERQODE_A2A_REVOKED_KEYS;

  it('reads key ids separated by commas or white space, upper case as lower', () => {
    expect(revoked(' 0123456789ab ,, ABCDEF012345\n0a1b2c3d4e5f  ffffffffffff ')).toEqual([
      '0123456789ab',
      'abcdef012345',
      '0a1b2c3d4e5f',
      'ffffffffffff',
    ]);
  });

  it.each(['abc123', '0123456789ab;ffffffffffff', 'sqk_live_x', '0123456789abc'])(
    'refuses %p: an entry that is no key id would revoke nothing',
    (v) => {
      expect(() => revoked(v)).toThrow(
        /SUPERQODE_A2A_REVOKED_KEYS: must be key ids .* entry \d is not one$/,
      );
    },
  );
});
