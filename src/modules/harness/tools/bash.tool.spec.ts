import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseHarnessSpec } from '../spec/harness-spec.loader';
import { bashTool, scrubEnvironment } from './bash.tool';
import type { ToolContext } from './harness-tool';

/** Pids in a process group that are still alive (zombies awaiting a reaper count as gone). */
function livePids(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(pgrp) === pgid && state !== 'Z' ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('bash', () => {
  let dir: string;
  const ctx = (yaml = '', signal = new AbortController().signal): ToolContext => ({
    workingDir: dir,
    spec: parseHarnessSpec(`inherits: coding\nname: t\n${yaml}`, 't.yaml', dir).spec,
    signal,
  });
  const run = (command: string, yaml?: string, extra: Record<string, unknown> = {}) =>
    bashTool.execute({ command, ...extra }, ctx(yaml));

  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'harness-bash-')));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs in the working directory and reports the exit code', async () => {
    await expect(run('pwd')).resolves.toEqual({ ok: true, output: `${dir}\n[exit code: 0]` });
    await expect(run('echo out; echo err >&2; exit 3')).resolves.toEqual({
      ok: false,
      output: 'out\nerr\n[exit code: 3]',
    });
  });

  it('caps output at limits.max_output_bytes', async () => {
    const { output } = await run('yes | head -c 100000', 'limits: {max_output_bytes: 1000}');
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(1000);
    expect(output).toMatch(/^y\ny\n/);
  });

  describe('allowed_commands', () => {
    const policy = 'execution_policy: {allowed_commands: [git]}';

    it('runs a listed command', async () => {
      const result = await run('git status', policy);
      expect(result.output).not.toMatch(/refused/);
      expect(result.output).toMatch(/\[exit code: \d+\]$/);
    });

    it('refuses an unlisted command, alone or after a listed one', async () => {
      writeFileSync(path.join(dir, 'x'), '');
      await expect(run('rm -rf x', policy)).resolves.toEqual({
        ok: false,
        output: 'refused: command not in allowed_commands (git): rm',
      });
      await expect(run('git status; rm x', policy)).resolves.toMatchObject({
        ok: false,
        output: expect.stringMatching(/: rm$/),
      });
      await expect(run('git log $(rm x)', policy)).resolves.toMatchObject({ ok: false });
      await expect(run('git log "`rm x`"', policy)).resolves.toMatchObject({
        ok: false,
        output: expect.stringMatching(/not in allowed_commands \(git\): rm/),
      });
      expect(existsSync(path.join(dir, 'x'))).toBe(true);
    });
  });

  it('sees a live process group (self-check of the helper)', async () => {
    const child = spawn('sleep', ['5'], { detached: true, stdio: 'ignore' });
    await sleep(50);
    expect(livePids(child.pid ?? -1)).toEqual([child.pid]);
    process.kill(-(child.pid ?? 0), 'SIGKILL');
  });

  it('kills the whole process group on timeout', async () => {
    const result = await run('echo $$; sleep 30 & sleep 30; wait', '', { timeout_seconds: 1 });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/\[killed: timeout after 1 s\]$/);
    const pgid = Number(result.output.split('\n')[0]);
    await sleep(100);
    expect(livePids(pgid)).toEqual([]);
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    const result = await run("trap '' TERM; echo $$; sleep 30 & sleep 30; wait", '', {
      timeout_seconds: 1,
    });
    expect(result.output).toMatch(/\[killed: timeout after 1 s\]$/);
    await sleep(100);
    expect(livePids(Number(result.output.split('\n')[0]))).toEqual([]);
  });

  it('caps the timeout at limits.task_timeout_seconds', async () => {
    const result = await run('sleep 30', 'limits: {task_timeout_seconds: 1}', {
      timeout_seconds: 60,
    });
    expect(result.output).toBe('[killed: timeout after 1 s]');
  });

  it('kills the process group when the signal aborts mid-command', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await bashTool.execute(
      { command: 'echo $$; sleep 30 & sleep 30' },
      ctx('', controller.signal),
    );
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/^\d+\n\[killed: cancelled\]$/);
    await sleep(100);
    expect(livePids(Number(result.output.split('\n')[0]))).toEqual([]);
  });

  it('does not start when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      bashTool.execute({ command: 'touch started' }, ctx('', controller.signal)),
    ).resolves.toEqual({ ok: false, output: '[killed: cancelled]' });
    expect(existsSync(path.join(dir, 'started'))).toBe(false);
  });

  it('terminates background jobs left behind when bash exits', async () => {
    const result = await run('sleep 30 >/dev/null 2>&1 & echo $$');
    expect(result.ok).toBe(true);
    await sleep(300);
    expect(livePids(Number(result.output.split('\n')[0]))).toEqual([]);
  });

  it("passes an allowlisted environment, never the server's (#12.3)", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      OPENAI_API_KEY: 'sk-test',
      SUPERQODE_A2A_TOKEN: 't0k',
      DATABASE_URL: 'postgres://u:p@h/db',
      SMTP_PWD: 'pw',
    });
    try {
      const line =
        'echo "[$OPENAI_API_KEY][$SUPERQODE_A2A_TOKEN][$DATABASE_URL][$SMTP_PWD][$EXTRA]"; env | cut -d= -f1 | sort | tr "\\n" " "';
      const { output } = await run(line, 'execution_policy: {sandbox: local, env: {EXTRA: yes}}');
      expect(output).toMatch(/^\[\]\[\]\[\]\[\]\[yes\]\n/);
      expect(
        output
          .split('\n')[1]
          .split(' ')
          .filter((n) => !['_', 'PWD', 'SHLVL', 'OLDPWD', ''].includes(n)),
      ).toEqual(['EXTRA', 'HOME', 'LANG', 'PATH', 'TERM']);
    } finally {
      process.env = saved;
    }
  });

  it('scrubs names containing TOKEN, SECRET, KEY or PASSWORD in any case', () => {
    const env = {
      PATH: '/bin',
      GITHUB_TOKEN: 'a',
      aws_secret_access_key: 'b',
      DB_PASSWORD: 'c',
      HOME: '/h',
    };
    expect(scrubEnvironment(env)).toEqual({ PATH: '/bin', HOME: '/h' });
  });
});
