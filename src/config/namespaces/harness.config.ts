import { effectiveHarnessAccess, isLoopbackHost } from '../a2a.config';
import type { HarnessAccess } from '../a2a.config';
import type { Env } from '../env.schema';
import { configNamespace } from './config-namespace';

/** Where and how the harness skill runs (namespace `harness`). */
export interface HarnessServeSettings {
  /** `SUPERQODE_A2A_HARNESS_ENABLED` (default true): false switches the skill off everywhere. */
  readonly enabled: boolean;
  /** The skill is served by this deployment (enabled, and loopback or exposed). */
  readonly served: boolean;
  /** Who may run it (`--harness-access`); a caller below it gets 401/403. */
  readonly access: HarnessAccess;
  /** Spec file or built-in template name. */
  readonly spec: string;
  /** `--spec` was given (a remote bind needs one). */
  readonly specGiven: boolean;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly baseUrl: string | undefined;
  readonly workingDir: string;
  /** Ledger file, or null for memory. */
  readonly storePath: string | null;
  /** Reachable beyond this machine: a non-loopback bind, or allowRemote (e.g. behind a proxy). */
  readonly exposed: boolean;
  /** An exposed server may serve a spec whose sandbox does not resolve to bwrap. */
  readonly allowUnsandboxed: boolean;
}

/** The harness skill is served: enabled, and a loopback bind or `--expose-harness`. */
export function harnessServed(env: Env): boolean {
  return (
    env.SUPERQODE_A2A_HARNESS_ENABLED &&
    (isLoopbackHost(env.SUPERQODE_A2A_HOST) || env.SUPERQODE_A2A_EXPOSE_HARNESS)
  );
}

/**
 * `harness`: whether the skill is served, who may run it (the setting, else `operator` with
 * exposeHarness and `anonymous` without; issue #12), spec, model and ledger. The policy on these
 * (`assertServePolicy`) is checked once, in bootstrap.
 */
export const harnessConfig = configNamespace('harness', (env): HarnessServeSettings => {
  const store = env.SUPERQODE_A2A_HARNESS_STORE_PATH;
  const specGiven = env.SUPERQODE_A2A_HARNESS_SPEC;
  return {
    enabled: env.SUPERQODE_A2A_HARNESS_ENABLED,
    served: harnessServed(env),
    access: effectiveHarnessAccess(
      env.SUPERQODE_A2A_HARNESS_ACCESS,
      env.SUPERQODE_A2A_EXPOSE_HARNESS,
    ),
    spec: specGiven ?? 'coding',
    specGiven: specGiven !== undefined,
    provider: env.SUPERQODE_A2A_HARNESS_PROVIDER,
    model: env.SUPERQODE_A2A_HARNESS_MODEL,
    baseUrl: env.SUPERQODE_A2A_HARNESS_BASE_URL,
    workingDir: env.SUPERQODE_A2A_WORKING_DIR,
    storePath: store === ':memory:' ? null : store,
    exposed: !isLoopbackHost(env.SUPERQODE_A2A_HOST) || env.SUPERQODE_A2A_ALLOW_REMOTE,
    allowUnsandboxed: env.SUPERQODE_A2A_ALLOW_UNSANDBOXED_HARNESS,
  };
});
