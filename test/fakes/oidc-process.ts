import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The oidc-provider child process (test/fakes/oidc-server.mjs). */
export interface OidcServer {
  issuer: string;
  /** Whether an access or refresh token is still active (test helper endpoint). */
  isActive(token: string): Promise<boolean>;
  /** Scopes of an active token ('' when inactive or unknown). */
  scopeOf(token: string): Promise<string>;
  /** Approves a pending device code as user "alice". */
  approve(userCode: string): Promise<boolean>;
  stop(): Promise<void>;
}

/** Starts oidc-provider in a child node process and waits for its issuer line. */
export async function startOidcServer(env: Record<string, string> = {}): Promise<OidcServer> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-server.mjs')], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('oidc-server did not start in 10 s')), 10_000);
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    child.once('exit', (code) => reject(new Error(`oidc-server exited with ${code}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  const get = async (path: string, method = 'GET'): Promise<Record<string, boolean | string>> =>
    (await fetch(issuer + path, { method })).json() as Promise<Record<string, boolean | string>>;
  const introspect = (token: string) => get(`/__test/active?token=${encodeURIComponent(token)}`);
  return {
    issuer,
    isActive: async (token) => (await introspect(token)).active === true,
    scopeOf: async (token) => {
      const r = await introspect(token);
      return r.active === true ? String(r.scope) : '';
    },
    approve: async (userCode) =>
      (await get(`/__test/approve?user_code=${encodeURIComponent(userCode)}`, 'POST')).ok === true,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
