import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM files of a throw-away CA, a server certificate for 127.0.0.1 and a client certificate. */
export interface TestPki {
  dir: string;
  caCert: string;
  serverKey: string;
  serverCert: string;
  clientKey: string;
  clientCert: string;
  /** A client certificate signed by another CA (the server must refuse it). */
  strangerKey: string;
  strangerCert: string;
  read(path: string): Buffer;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

function issue(dir: string, name: string, ca: string, ext?: string): void {
  openssl(
    dir,
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${name}`,
  );
  const extArgs = ext ? ['-extfile', `${name}.ext`] : [];
  if (ext) writeFileSync(join(dir, `${name}.ext`), ext);
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    ...extArgs,
  );
}

/** Generates the PKI with the `openssl` CLI in a fresh temp directory (~1 s). */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'sq-pki-'));
  for (const ca of ['ca', 'otherca']) {
    openssl(
      dir,
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${ca}.key`,
      '-out',
      `${ca}.crt`,
      '-days',
      '2',
      '-subj',
      `/CN=${ca}`,
    );
  }
  issue(dir, 'server', 'ca', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  issue(dir, 'client', 'ca', 'extendedKeyUsage=clientAuth\n');
  issue(dir, 'stranger', 'otherca', 'extendedKeyUsage=clientAuth\n');
  const p = (f: string): string => join(dir, f);
  return {
    dir,
    caCert: p('ca.crt'),
    serverKey: p('server.key'),
    serverCert: p('server.crt'),
    clientKey: p('client.key'),
    clientCert: p('client.crt'),
    strangerKey: p('stranger.key'),
    strangerCert: p('stranger.crt'),
    read: (path) => readFileSync(path),
  };
}

/** An `openssl s_server` on 127.0.0.1 requiring a client certificate from `ca` (it sends TLS alerts). */
export async function startOpensslServer(pki: TestPki): Promise<{ url: string; stop(): void }> {
  const child = spawn(
    'openssl',
    [
      's_server',
      '-accept',
      '127.0.0.1:0',
      '-cert',
      pki.serverCert,
      '-key',
      pki.serverKey,
      '-CAfile',
      pki.caCert,
      '-Verify',
      '1',
      '-verify_return_error',
      '-www',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('openssl s_server did not start')), 10_000);
    let seen = '';
    child.stdout.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = /ACCEPT 127\.0\.0\.1:(\d+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  child.stderr.resume();
  return { url: `https://127.0.0.1:${port}`, stop: () => void child.kill('SIGTERM') };
}
