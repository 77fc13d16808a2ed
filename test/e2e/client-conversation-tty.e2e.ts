import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, requireBuiltCli, tempHome } from '../fakes/client-cli';
import { harnessServerSuite } from '../fakes/harness-server';

const SPEC = `
name: client-tty-e2e
execution_policy:
  allow_read: true
  allow_write: true
  permission_rules:
    - { tool: write_file, action: ask }
`;

/**
 * Runs the built CLI in a pseudo-terminal (util-linux `script -qfc`), typing `reply` once the
 * prompt appears. Resolves with everything the terminal showed and the exit code.
 */
function inTerminal(
  args: string[],
  home: string,
  reply: string,
): Promise<{ code: number | null; screen: string }> {
  const quoted = [process.execPath, CLI, ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', quoted, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let typed = false;
    child.stdout.on('data', (d: Buffer) => {
      screen += d.toString();
      if (!typed && screen.includes('reply> ')) {
        typed = true;
        child.stdin.write(`${reply}\r`);
      }
    });
    child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

describe('The input-required prompt on a terminal (issue #17)', () => {
  const suite = harnessServerSuite(SPEC, { 'README.md': '# demo\n' });
  beforeAll(() => requireBuiltCli());

  it('asks on the TTY, sends the reply to the same task, and the approved write happens', async () => {
    suite.fake.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'tty.txt', content: 'typed\n' } }] },
      { text: 'Wrote tty.txt after your approval.' },
    );
    const r = await inTerminal(
      ['connect', 'a2a', suite.server.url, '--send', 'create tty.txt'],
      tempHome(),
      'approve',
    );
    expect(r.screen).toContain('write_file wants to write tty.txt');
    expect(r.screen).toContain('reply> ');
    expect(r.screen).toContain('Wrote tty.txt after your approval.');
    expect(r.screen).toMatch(/task: +\S+ completed/);
    expect(r.code).toBe(0);
    expect(readFileSync(join(suite.checkout.dir, 'tty.txt'), 'utf8')).toBe('typed\n');
  });
});
