import { redactedArgs } from './argv-secrets';

describe('redactedArgs', () => {
  it('replaces the value of every secret flag, in both forms', () => {
    expect(
      redactedArgs([
        'serve',
        'a2a',
        '--token',
        'operator-token-123456',
        '--database-url=postgres://u:pw@h/db',
        '--redis-url',
        'redis://:pw@h',
        '--header',
        'Authorization: Bearer x',
        '--port',
        '8080',
      ]),
    ).toEqual([
      'serve',
      'a2a',
      '--token',
      '***',
      '--database-url=***',
      '--redis-url',
      '***',
      '--header',
      '***',
      '--port',
      '8080',
    ]);
  });

  it('replaces an API key given as an argument (a2a-keys verify KEY), live or test', () => {
    expect(redactedArgs(['a2a-keys', 'verify', 'sqk_live_eyJ2IjoxfQ.c2ln'])).toEqual([
      'a2a-keys',
      'verify',
      '***',
    ]);
    expect(redactedArgs(['a2a-keys', 'verify', 'sqk_test_x', '--env-file', 'p.env'])).toEqual([
      'a2a-keys',
      'verify',
      '***',
      '--env-file',
      'p.env',
    ]);
    expect(redactedArgs(['a2a-keys', 'verify', '--', 'sqk_live_eyJ2IjoxfQ.c2ln'])).toEqual([
      'a2a-keys',
      'verify',
      '--',
      '***',
    ]);
    expect(redactedArgs(['a2a-keys', 'issue', 'sqk-customer'])).toBeUndefined();
  });

  it('is undefined when no secret flag has a value', () => {
    expect(redactedArgs(['a2a', 'list'])).toBeUndefined();
    expect(redactedArgs(['serve', 'a2a', '--token'])).toBeUndefined();
  });

  it('leaves arguments after -- alone', () => {
    expect(redactedArgs(['a2a', 'call', '--token', 't', '--', '--token', 'text'])).toEqual([
      'a2a',
      'call',
      '--token',
      '***',
      '--',
      '--token',
      'text',
    ]);
  });
});
