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
