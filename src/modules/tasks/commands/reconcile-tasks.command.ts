import { Module } from '@nestjs/common';
import { CommandRunner, Option, SubCommand } from 'nest-commander';
import { withCommandContext } from '../../../cli/command-context';
import { A2aConfigModule } from '../../../config/a2a-config.module';
import type { ConfiguredTasksModule } from '../configured-tasks.module';
import type { TasksService } from '../tasks.service';

/** Flags of `superqode a2a reconcile`. */
interface ReconcileOptions {
  dryRun?: boolean;
  taskStore?: string;
}

/**
 * `superqode a2a reconcile [--dry-run] [--task-store PATH]`: marks SUBMITTED or WORKING tasks
 * whose owner stopped renewing its lease (`SUPERQODE_A2A_LEASE_MS`) as FAILED, as running
 * servers do every lease period, and prints each one with its owner. Safe beside live servers:
 * their tasks hold renewed leases and are left alone. Runs no heartbeat of its own.
 */
@SubCommand({
  name: 'reconcile',
  description: 'Mark tasks orphaned by a stopped server (lease expired) as failed',
})
export class ReconcileTasksCommand extends CommandRunner {
  async run(_args: string[], options: ReconcileOptions = {}): Promise<void> {
    // Loaded here, not at module load: the client's `a2a` group lists this command, and
    // `a2a list` must not load TypeORM (issue #13).
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { ConfiguredTasksModule: Tasks } = require('../configured-tasks.module') as {
      ConfiguredTasksModule: typeof ConfiguredTasksModule;
    };
    const { TasksService: Service } = require('../tasks.service') as {
      TasksService: typeof TasksService;
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
    @Module({
      imports: [
        A2aConfigModule.forRoot({ SUPERQODE_A2A_TASK_STORE_PATH: options.taskStore }),
        Tasks,
      ],
    })
    class ReconcileModule {}
    await withCommandContext(ReconcileModule, async (ctx) => {
      const { tasks: found } = await ctx
        .get(Service)
        .failOrphaned({ dryRun: options.dryRun === true });
      for (const t of found) {
        const run = t.runId ? ` run=${t.runId}` : '';
        const owner = ` owner=${t.leaseOwner ?? 'unknown'}`;
        process.stdout.write(
          `${options.dryRun ? 'would mark' : 'marked'} failed: task=${t.taskId} context=${t.contextId} was=${t.state}${owner}${run}\n`,
        );
      }
      process.stdout.write(
        `${found.length} interrupted task(s)${options.dryRun ? ' (dry run: nothing changed)' : ''}\n`,
      );
    });
  }

  @Option({ flags: '--dry-run', description: 'only list what would change' })
  parseDryRun(): boolean {
    return true;
  }

  @Option({ flags: '--task-store <path>', description: 'SQLite file of the task store' })
  parseTaskStore(v: string): string {
    return v;
  }
}

/** `superqode a2a …` group for server-side task maintenance. */
export const RECONCILE_COMMANDS = [ReconcileTasksCommand];
