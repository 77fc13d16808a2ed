import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bwrapArgs } from './bwrap-args';
import { allowlistedEnvironment } from './sandbox-environment';
import { etcEntries, systemEntries } from './sandbox-host';

/** A sandbox mode as a spec names it. */
export type RequestedSandbox = 'local' | 'bwrap' | 'auto';
/** The sandbox in force once `auto` is resolved. */
export type SandboxName = 'local' | 'bwrap';

/** Whether bubblewrap runs here; `reason` says why not (first line of its error). */
export interface SandboxProbe {
  ok: boolean;
  reason: string;
}

let probed: SandboxProbe | undefined;

/**
 * Runs `/bin/true` once under the exact bwrap and prlimit setup tools get (all namespaces,
 * network off) in a scratch directory; the answer is kept for the life of the process.
 * @returns `{ok: true}` when it exited 0 within 10 s.
 */
export function probeBwrap(): SandboxProbe {
  if (probed) return probed;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'superqode-bwrap-probe-')));
  try {
    const plan = {
      workingDir: dir,
      allowNetwork: false,
      system: systemEntries(),
      etc: etcEntries(),
      masked: [],
      limits: { processes: 64, addressSpaceBytes: 1 << 30, fileBytes: 1 << 20, cpuSeconds: 10 },
    };
    const result = spawnSync('bwrap', bwrapArgs(plan, ['/bin/true']), {
      env: allowlistedEnvironment({}, 'bwrap'),
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const stderr = (result.stderr ?? '').trim().split('\n')[0];
    probed =
      result.status === 0
        ? { ok: true, reason: '' }
        : {
            ok: false,
            reason:
              result.error?.message ??
              (stderr || `bwrap exited with ${result.status ?? result.signal}`),
          };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return probed;
}

/**
 * The sandbox in force for a requested mode: `auto` is `bwrap` when {@link probeBwrap} succeeds,
 * else `local`; `local` and `bwrap` are themselves (a failing `bwrap` is reported when used).
 * @param requested - `execution_policy.sandbox`.
 */
export function resolveSandbox(requested: RequestedSandbox): SandboxName {
  if (requested !== 'auto') return requested;
  return probeBwrap().ok ? 'bwrap' : 'local';
}
