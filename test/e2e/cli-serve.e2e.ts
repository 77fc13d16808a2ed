import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toEnv } from '../../src/modules/transport/commands/serve-a2a.command';
import { ServeCommandsModule } from '../../src/modules/transport/commands/serve-commands.module';
import { startBuiltServer } from '../utils/built-server';
import { runCommandInProcess } from '../utils/in-process-cli';

const CLI = join(__dirname, '../../dist/cli.js');

/** Runs the built CLI (`npm test` builds first) and returns exit code and output. */
function superqode(...args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, SUPERQODE_A2A_LOG_LEVEL: 'error' },
  });
  return { status: r.status, out: readable(`${r.stdout}${r.stderr}`) };
}

/**
 * `superqode serve a2a …` in process (issue #13: the refusals are the command's own code; the
 * spawned {@link superqode} stays as the smoke test of the built CLI), with the CLI's exit codes.
 */
async function inProcess(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ status: number | null; out: string }> {
  const r = await runCommandInProcess([ServeCommandsModule], args, {
    SUPERQODE_A2A_LOG_LEVEL: 'error',
    ...env,
  });
  return { status: r.status, out: readable(r.out) };
}

/** The output with each JSON log line (not a TTY: the server's log format) shown as its `msg`. */
function readable(out: string): string {
  return out
    .split('\n')
    .map((line) => {
      try {
        const parsed = JSON.parse(line) as { msg?: unknown };
        return typeof parsed.msg === 'string' ? parsed.msg : line;
      } catch {
        return line;
      }
    })
    .join('\n');
}

describe('superqode serve a2a (built CLI, exit codes)', () => {
  beforeAll(() => {
    if (!existsSync(CLI))
      throw new Error('dist/cli.js is missing: run `npm run build` (npm test does)');
  });

  it('refuses a non-loopback --host without --allow-remote, saying so, exit 1', () => {
    const r = superqode('serve', 'a2a', '--host', '0.0.0.0', '--port', '0', '--no-task-store');
    expect(r.status).toBe(1);
    expect(r.out).toMatch(
      /Refusing to bind 0\.0\.0\.0: it is not a loopback address\. Pass --allow-remote/,
    );
    expect(r.out).not.toMatch(/\bat \S+ \(/); // one line, no stack trace
  });

  it('refuses an invalid --port naming the flag and the value typed, exit 1 (#19)', async () => {
    const r = await inProcess({}, 'serve', 'a2a', '--port', 'abc', '--no-task-store');
    expect(r.status).toBe(1);
    expect(r.out).toContain('--port "abc": must be a number');
    expect(r.out).not.toMatch(/SUPERQODE_A2A_PORT|NaN/);
  });

  it('names the variable when the environment gave the bad value (#19)', async () => {
    const r = await inProcess({ SUPERQODE_A2A_PORT: 'abc' }, 'serve', 'a2a', '--no-task-store');
    expect(r.status).toBe(1);
    expect(r.out).toContain('SUPERQODE_A2A_PORT="abc": must be a number');
  });

  it('--provider ollama is refused with the openai-compatible flags as a hint (#19)', async () => {
    const r = await inProcess(
      {},
      'serve',
      'a2a',
      '--port',
      '0',
      '--no-task-store',
      '--provider',
      'ollama',
    );
    expect(r.status).toBe(1);
    expect(r.out).toContain('--provider "ollama": must be one of: openai, anthropic');
    expect(r.out).toContain(
      'use --provider openai-compatible --base-url http://127.0.0.1:11434/v1',
    );
  });

  it('never echoes a secret flag value in the error (#19)', async () => {
    const r = await inProcess({}, 'serve', 'a2a', '--no-task-store', '--token', 'short-secret');
    expect(r.status).toBe(1);
    expect(r.out).toContain('--token: must be at least 16 characters');
    expect(r.out).not.toContain('short-secret');
  });

  it('an unknown flag is refused with a non-zero exit', async () => {
    const r = await inProcess({}, 'serve', 'a2a', '--bogus');
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/unknown option/i);
  });

  it('maps flags onto the env schema (--no-task-store, --no-legacy)', () => {
    expect(toEnv({ taskStore: false, legacy: false, port: '9000', host: '::1' })).toMatchObject({
      SUPERQODE_A2A_TASK_STORE_ENABLED: false,
      SUPERQODE_A2A_LEGACY_V03: false,
      SUPERQODE_A2A_PORT: '9000',
      SUPERQODE_A2A_HOST: '::1',
    });
    expect(toEnv({ taskStore: 'x.sqlite3' }).SUPERQODE_A2A_TASK_STORE_PATH).toBe('x.sqlite3');
  });
});

describe('serve a2a --port 0 (the built CLI)', () => {
  it('a taken metrics port fails the start once: the port chosen for 0 is not retried for it', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const metricsPort = (holder.address() as AddressInfo).port;
    try {
      const r = spawnSync(process.execPath, [CLI, 'serve', 'a2a', '--port', '0'], {
        encoding: 'utf8',
        timeout: 60_000,
        cwd: mkdtempSync(join(tmpdir(), 'sq-metrics-taken-')),
        env: {
          PATH: process.env.PATH,
          SUPERQODE_A2A_HARNESS_ENABLED: 'false',
          SUPERQODE_A2A_TASK_STORE_ENABLED: 'false',
          SUPERQODE_A2A_METRICS_HOST: '127.0.0.1',
          SUPERQODE_A2A_METRICS_PORT: String(metricsPort),
        },
      });
      const out = `${r.stdout}${r.stderr}`;
      expect(r.status).toBe(1);
      expect(out).toContain(`Cannot listen on 127.0.0.1:${metricsPort}`);
      expect(out.match(/Rate limits/g) ?? []).toHaveLength(1); // the app was built once
    } finally {
      holder.close();
    }
  });

  it('binds an IPv6 address written as in a URL (--host [::1]) and advertises it bracketed', async () => {
    const served = await startBuiltServer(
      {},
      { args: [CLI, 'serve', 'a2a', '--host', '[::1]', '--port', '0'] },
    );
    try {
      expect(served.url).toMatch(/^http:\/\/\[::1\]:[1-9]\d*$/);
      const card = (await (
        await fetch(`${served.url}/.well-known/agent-card.json`, {
          headers: { 'A2A-Version': '1.0' },
        })
      ).json()) as { supportedInterfaces: { url: string }[] };
      expect(card.supportedInterfaces[0].url).toBe(served.url);
    } finally {
      await served.stop();
    }
  });

  it('advertises the port it chose in the card and the banner, not :0', async () => {
    const served = await startBuiltServer({}, { args: [CLI, 'serve', 'a2a', '--port', '0'] });
    try {
      expect(served.url).not.toMatch(/:0$/);
      const card = (await (
        await fetch(`${served.url}/.well-known/agent-card.json`, {
          headers: { 'A2A-Version': '1.0' },
        })
      ).json()) as { supportedInterfaces: { url: string }[] };
      expect(card.supportedInterfaces.map((i) => i.url)).toEqual([
        served.url,
        served.url,
        served.url,
      ]);
      expect(served.output()).toContain(`Agent Card: ${served.url}/.well-known/agent-card.json`);
    } finally {
      await served.stop();
    }
  });
});
