import { redactUrl } from './redact-url';

describe(redactUrl.name, () => {
  it('redacts credential-like query values and keeps the rest', () => {
    expect(redactUrl('/tasks?pageSize=2&access_token=abc&Api_Key=k&x')).toBe(
      '/tasks?pageSize=2&access_token=[REDACTED]&Api_Key=[REDACTED]&x',
    );
    expect(redactUrl('/tasks/1')).toBe('/tasks/1');
    expect(redactUrl('/?%61ccess_token=zz')).toBe('/?%61ccess_token=[REDACTED]');
  });
});
