import { spawn } from 'node:child_process';
import type { ProcessEnv } from '../../../config/process-env';

/**
 * Whether a browser can be opened for the user here: a local graphical session (`DISPLAY` or
 * `WAYLAND_DISPLAY`; macOS and Windows always, unless reached over SSH without a forwarded
 * display). Over SSH without a display the device flow is the one the user can complete.
 * @see RFC 8252 §4 (native apps use the system browser); RFC 8628 §1 (input-constrained devices).
 */
export function hasDisplay(env: ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return true;
  if (env.SSH_CONNECTION || env.SSH_TTY || env.SSH_CLIENT) return false;
  return platform === 'darwin' || platform === 'win32';
}

/**
 * The command that opens `url`: the first entry of `BROWSER` (a `:`-separated list, as Python's
 * `webbrowser` and `xdg-open` read it; `%s` stands for the URL, else the URL is appended), else
 * `open` (macOS), `cmd /c start` (Windows) or `xdg-open`.
 */
export function browserCommand(
  url: string,
  env: ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): string[] {
  const first = env.BROWSER?.split(':')
    .map((s) => s.trim())
    .find(Boolean);
  if (first) {
    const argv = first.split(/\s+/);
    return argv.some((a) => a.includes('%s'))
      ? argv.map((a) => a.replaceAll('%s', url))
      : [...argv, url];
  }
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['cmd', '/c', 'start', '""', url];
  return ['xdg-open', url];
}

/**
 * Opens `url` in the user's browser, detached; failures are reported through `onError` (the URL
 * is printed anyway, so the user can open it by hand).
 */
export function openBrowser(url: string, env: ProcessEnv, onError: (why: string) => void): void {
  const [cmd, ...args] = browserCommand(url, env);
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
    child.on('error', (err: NodeJS.ErrnoException) =>
      onError(`${cmd}: ${err.code ?? err.message}`),
    );
    child.unref();
  } catch (err) {
    onError(`${cmd}: ${(err as Error).message}`);
  }
}
