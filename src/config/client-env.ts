import { homedir } from 'node:os';
import { join } from 'node:path';
import { processEnv } from './process-env';

/**
 * Environment read by the client side of the CLI only. Not part of the server's validated schema
 * (`./env.schema.ts`): the server never reads these, and `connect`/`a2a` commands must run where
 * no server configuration exists (or where it would not validate). Each variable is read when a
 * command runs.
 */
export const CLIENT_ENV = {
  /** Token used when `--token` is not given; a saved connection records the variable, not the value. */
  TOKEN: 'SUPERQODE_A2A_CLIENT_TOKEN',
  /** OAuth 2 client id for the client-credentials grant (with the secret) or as a public client. */
  OAUTH_CLIENT_ID: 'SUPERQODE_A2A_OAUTH_CLIENT_ID',
  /** OAuth 2 client secret (client credentials). Never stored. */
  OAUTH_CLIENT_SECRET: 'SUPERQODE_A2A_OAUTH_CLIENT_SECRET',
  /** `keyring`, `file` or `auto` (default): where OAuth tokens are stored. */
  OAUTH_STORE: 'SUPERQODE_A2A_OAUTH_STORE',
  /** `keyring`, `file` or `auto` (default): where tokens of saved connections are stored. */
  SECRET_STORE: 'SUPERQODE_A2A_SECRET_STORE',
  /** Milliseconds of silence before `tui` says the host may be cold-starting (default 8000). */
  TUI_COLD_START_MS: 'SUPERQODE_A2A_TUI_COLD_START_MS',
} as const;

/** The value of one variable ('' and unset both give undefined). */
export function clientEnv(name: string): string | undefined {
  const v = processEnv()[name];
  return v ? v : undefined;
}

/**
 * `~/.superqode`: `$HOME/.superqode` (read through {@link processEnv}, so tests can point it at a
 * temp directory, in process too), else the OS home directory's.
 */
export function superqodeHome(): string {
  return join(processEnv().HOME || homedir(), '.superqode');
}
