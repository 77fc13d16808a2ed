import { withScheme } from './card-discovery';
import { credentialRefusal, isLoopbackHost, parseOrigin } from './credential-policy';

const policy = { cardOrigin: 'https://agent.example', trustOrigins: [], allowInsecure: false };
const refusal = (url: string, p = {}) => credentialRefusal(new URL(url), { ...policy, ...p });

describe('credentialRefusal', () => {
  it('allows the card origin', () => expect(refusal('https://agent.example/a2a')).toBeUndefined());
  it('refuses another origin (other port counts)', () =>
    expect(refusal('https://agent.example:444/')).toContain("not the card's origin"));
  it('allows a trusted origin', () =>
    expect(
      refusal('https://api.example/', { trustOrigins: ['https://api.example'] }),
    ).toBeUndefined());
  it.each([
    'http://169.254.169.254/',
    'http://[::ffff:169.254.1.1]/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://100.100.100.200/',
    'http://METADATA.google.internal/',
  ])('never %s', (url) =>
    expect(refusal(url, { trustOrigins: [new URL(url).origin], allowInsecure: true })).toMatch(
      /link-local|metadata|unspecified/,
    ),
  );
  it('plain HTTP only to loopback unless --allow-insecure', () => {
    const o = { cardOrigin: 'http://10.0.0.5', trustOrigins: ['http://127.0.0.1:8000'] };
    expect(refusal('http://10.0.0.5/', o)).toContain('over plain HTTP');
    expect(refusal('http://10.0.0.5/', { ...o, allowInsecure: true })).toBeUndefined();
    expect(refusal('http://127.0.0.1:8000/', o)).toBeUndefined();
  });
});

describe('isLoopbackHost, parseOrigin, withScheme', () => {
  it.each([
    ['http://localhost:1', true],
    ['http://a.localhost', true],
    ['http://127.9.9.9', true],
    ['http://[::1]', true],
    ['http://10.0.0.1', false],
  ])('%s loopback=%s', (url, yes) => expect(isLoopbackHost(new URL(url))).toBe(yes));
  it('parseOrigin keeps origins only', () => {
    expect(parseOrigin('https://API.example:8443/')).toBe('https://api.example:8443');
    expect(parseOrigin('https://api.example/path')).toBeUndefined();
    expect(parseOrigin('ftp://x')).toBeUndefined();
    expect(parseOrigin('https://u:p@x')).toBeUndefined();
  });
  it.each([
    ['127.0.0.1:8000', 'http://127.0.0.1:8000'],
    ['localhost:3000/x', 'http://localhost:3000/x'],
    ['[::1]:80', 'http://[::1]:80'],
    ['agent.example', 'https://agent.example'],
    ['http://x', 'http://x'],
    ['mailto:x@y', 'mailto:x@y'],
  ])('withScheme(%s) = %s', (input, expected) => expect(withScheme(input)).toBe(expected));
});
