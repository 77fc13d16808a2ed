import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { withCommandContext } from '../../../cli/command-context';
import { HARNESS_DEFAULT_STORE_PATH } from '../harness.constants';
import type { HarnessModule } from '../harness.module';
import type { HarnessLedgerService } from '../ledger/harness-ledger.service';
import { HarnessError } from '../protocol/harness-protocol.errors';
import type { HarnessProtocolController } from '../protocol/harness-protocol';
import { HarnessSpecError } from '../spec/harness-spec.errors';

/** Exit codes of the harness commands (2, a usage error, comes from commander). */
export const HARNESS_EXIT = {
  ok: 0,
  failed: 1,
  needsApproval: 3,
  cancelled: 130,
} as const;

/**
 * Lease renewal period of the runs a CLI command executes, ms (a server beside it fails runs
 * whose lease, `SUPERQODE_A2A_LEASE_MS`, default 30 s, is not renewed).
 */
export const CLI_RUN_HEARTBEAT_MS = 5000;

/** What a harness command works with. */
export interface HarnessCliApi {
  controller: HarnessProtocolController;
  ledger: HarnessLedgerService;
}

/** `--harness-store <path>`, shared by every harness command. */
export interface HarnessStoreFlags {
  harnessStore?: string;
}

/** The ledger file a command uses: `--harness-store`, else `.superqode/a2a/harness.sqlite3`. */
export function storePathOf(flags: HarnessStoreFlags): string {
  return resolve(flags.harnessStore ?? HARNESS_DEFAULT_STORE_PATH);
}

/** True when the ledger file exists (read-only commands never create one). */
export function storeExists(path: string): boolean {
  return existsSync(path);
}

/**
 * Runs `work` in a command context of {@link HarnessModule} on the given ledger file,
 * renewing the leases of the runs it executes every {@link CLI_RUN_HEARTBEAT_MS}, then closes it
 * (runs still in progress are cancelled and recorded first).
 * @throws {Error} The ledger file cannot be opened or migrated; whatever `work` throws.
 */
export async function withHarness<T>(
  storePath: string,
  work: (api: HarnessCliApi) => Promise<T>,
): Promise<T> {
  // Loaded here, not at module load: `harness validate` needs neither the ledger (TypeORM) nor
  // the run loop (issue #13).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { HarnessModule: Harness } = require('../harness.module') as {
    HarnessModule: typeof HarnessModule;
  };
  const { HarnessLedgerService: Ledger } = require('../ledger/harness-ledger.service') as {
    HarnessLedgerService: typeof HarnessLedgerService;
  };
  const { HarnessProtocolController: Controller } = require('../protocol/harness-protocol') as {
    HarnessProtocolController: typeof HarnessProtocolController;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return withCommandContext(
    Harness.forRoot({ storePath }),
    async (app) => {
      const ledger = app.get(Ledger);
      // This process owns the runs it executes: keep their leases so a server sharing the ledger
      // does not take them for orphans.
      const heartbeat = setInterval(() => {
        ledger.renewRunLeases(Date.now()).catch(() => undefined);
      }, CLI_RUN_HEARTBEAT_MS).unref();
      try {
        return await work({ controller: app.get(Controller), ledger });
      } finally {
        clearInterval(heartbeat);
      }
    },
    { logger: ['error', 'warn'] },
  );
}

/** One line on stderr and a non-zero exit code (the command returns normally). */
export function fail(message: string, exitCode: number = HARNESS_EXIT.failed): void {
  process.stderr.write(`error: ${message}\n`);
  process.exitCode = exitCode;
}

/**
 * Prints an expected error (unknown id, invalid spec, provider) as one line, exit 1;
 * rethrows anything else (the CLI's error handler logs it and exits 1).
 */
export function failOnKnown(err: unknown): void {
  if (err instanceof HarnessError || err instanceof HarnessSpecError) return fail(err.message);
  throw err;
}
