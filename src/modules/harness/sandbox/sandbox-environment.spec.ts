import {
  allowlistedEnvironment,
  localToolHome,
  SANDBOX_HOME,
  SANDBOX_PATH,
} from './sandbox-environment';

describe(allowlistedEnvironment.name, () => {
  const server = {
    PATH: '/opt/node/bin:/usr/bin',
    LANG: 'en_GB.UTF-8',
    DATABASE_URL: 'postgres://u:p@h/db',
    DB_PASS: 'x',
    SMTP_PWD: 'y',
    SUPERQODE_A2A_KEY_SECRET: 'z',
  };

  it('keeps PATH, HOME, LANG and TERM only, whatever the server has', () => {
    expect(allowlistedEnvironment({}, 'local', server)).toEqual({
      PATH: '/opt/node/bin:/usr/bin',
      HOME: localToolHome(),
      LANG: 'en_GB.UTF-8',
      TERM: 'dumb',
    });
  });

  it('uses the system PATH inside bwrap and adds the spec env last', () => {
    expect(allowlistedEnvironment({ TERM: 'xterm', CI: '1' }, 'bwrap', server)).toEqual({
      PATH: SANDBOX_PATH,
      HOME: SANDBOX_HOME,
      LANG: 'en_GB.UTF-8',
      TERM: 'xterm',
      CI: '1',
    });
  });

  it('never sets HOME to the working directory (tool caches stay out of the checkout)', () => {
    const home = allowlistedEnvironment({}, 'local', server).HOME;
    expect(home).not.toBe(process.cwd());
    expect(home.startsWith(process.cwd())).toBe(false);
  });
});
