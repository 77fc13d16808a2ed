import { allowlistedEnvironment, SANDBOX_PATH } from './sandbox-environment';

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
    expect(allowlistedEnvironment('/w', {}, 'local', server)).toEqual({
      PATH: '/opt/node/bin:/usr/bin',
      HOME: '/w',
      LANG: 'en_GB.UTF-8',
      TERM: 'dumb',
    });
  });

  it('uses the system PATH inside bwrap and adds the spec env last', () => {
    expect(allowlistedEnvironment('/w', { TERM: 'xterm', CI: '1' }, 'bwrap', server)).toEqual({
      PATH: SANDBOX_PATH,
      HOME: '/w',
      LANG: 'en_GB.UTF-8',
      TERM: 'xterm',
      CI: '1',
    });
  });
});
