import { Redactor } from './redact';

describe(Redactor.name, () => {
  it.each([
    ['Authorization: Bearer abc.def-ghi_123', 'Authorization: Bearer [REDACTED]'],
    ['basic dXNlcjpwYXNzd29yZA==', 'basic [REDACTED]'],
    ['key sqk_live_AbC123.def and sqk_test_x-y', 'key sqk_live_[REDACTED] and sqk_test_[REDACTED]'],
    ['OPENAI sk-proj-abcdefghijkl', 'OPENAI sk-[REDACTED]'],
    [
      'GET /x?access_token=t0k&page=2&api_key=k3y',
      'GET /x?access_token=[REDACTED]&page=2&api_key=[REDACTED]',
    ],
    [
      '{"access_token":"a1","refresh_token":"r1","expires_in":3600}',
      '{"access_token":"[REDACTED]","refresh_token":"[REDACTED]","expires_in":3600}',
    ],
    [
      'www-authenticate: Bearer realm="superqode-a2a", error="invalid_token"',
      'www-authenticate: Bearer realm="superqode-a2a", error="invalid_token"',
    ],
    ['sending the token from --token', 'sending the token from --token'],
  ])('redacts %s', (input, expected) => {
    expect(new Redactor().text(input)).toBe(expected);
  });

  it('replaces registered secrets and secret query parameters anywhere', () => {
    const r = new Redactor();
    r.addSecret('hunter2-secret');
    r.addSecret('ab'); // too short to redact safely
    r.addSecretParam('x-key');
    expect(r.text('pw=hunter2-secret; ab; /?x-key=v&y=1')).toBe(
      'pw=[REDACTED]; ab; /?x-key=[REDACTED]&y=1',
    );
  });

  it('masks credential headers by name, keeping the Authorization scheme word', () => {
    const headers = new Redactor().headers([
      ['authorization', 'Bearer t'],
      ['x-api-key', 'k'],
      ['cookie', 'sid=1'],
      ['accept', 'application/json'],
    ]);
    expect(headers).toEqual([
      ['authorization', 'Bearer [REDACTED]'],
      ['x-api-key', '[REDACTED]'],
      ['cookie', '[REDACTED]'],
      ['accept', 'application/json'],
    ]);
  });
});
