import { envFileFlagOf } from './env-file-flag';

describe(envFileFlagOf.name, () => {
  it('reads both forms, the last one given, and nothing after --', () => {
    expect(envFileFlagOf(['a2a-keys', 'status'])).toBeUndefined();
    expect(envFileFlagOf(['a2a-keys', 'status', '--env-file', 'a.env'])).toBe('a.env');
    expect(envFileFlagOf(['a2a-keys', '--env-file=a.env', 'issue', 'x'])).toBe('a.env');
    expect(envFileFlagOf(['a2a-keys', '--env-file=a.env', '--env-file', 'b.env'])).toBe('b.env');
    expect(envFileFlagOf(['a2a-keys', 'verify', '--', '--env-file', 'a.env'])).toBeUndefined();
    expect(envFileFlagOf(['a2a-keys', 'status', '--env-file'])).toBeUndefined();
  });
});
