import { browserCommand, hasDisplay } from './browser';

describe('hasDisplay (browser + PKCE with a display, device code over SSH or without one)', () => {
  it.each([
    [{ DISPLAY: ':0' }, 'linux', true],
    [{ WAYLAND_DISPLAY: 'wayland-0' }, 'linux', true],
    [{}, 'linux', false],
    [{ SSH_CONNECTION: '10.0.0.1 5 10.0.0.2 22' }, 'linux', false],
    [{ SSH_CONNECTION: '10.0.0.1 5 10.0.0.2 22', DISPLAY: 'localhost:10.0' }, 'linux', true],
    [{}, 'darwin', true],
    [{ SSH_TTY: '/dev/pts/1' }, 'darwin', false],
    [{}, 'win32', true],
  ] as const)('%j on %s → %s', (env, platform, expected) => {
    expect(hasDisplay(env, platform)).toBe(expected);
  });
});

describe('browserCommand (BROWSER as Python webbrowser and xdg-open read it)', () => {
  const url = 'https://as.example/authorize?x=1';
  it('appends the URL, or substitutes %s, using the first entry of a : list', () => {
    expect(browserCommand(url, { BROWSER: 'firefox --new-tab' }, 'linux')).toEqual([
      'firefox',
      '--new-tab',
      url,
    ]);
    expect(browserCommand(url, { BROWSER: 'w3m %s:lynx' }, 'linux')).toEqual(['w3m', url]);
  });
  it('falls back to the platform opener', () => {
    expect(browserCommand(url, {}, 'linux')).toEqual(['xdg-open', url]);
    expect(browserCommand(url, {}, 'darwin')).toEqual(['open', url]);
  });
});
