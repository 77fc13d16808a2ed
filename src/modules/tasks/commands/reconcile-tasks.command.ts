import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandRunner, Option, SubCommand } from 'nest-commander';
import { A2aConfigModule } from '../../../config/a2a-config.module';
import { ConfiguredTasksModule } from '../configured-tasks.module';
import { TaskReconciler } from '../task-reconciler.service';

/** Flags of `superqode a2a reconcile`. */
interface ReconcileOptions {
  dryRun?: boolean;
  taskStore?: string;
}

/**
 * `superqode a2a reconcile [--dry-run] [--task-store PATH]`: marks tasks a stopped server left
 * SUBMITTED or WORKING as FAILED (the server does this at every start) and prints each one.
 * Run it while the server is stopped: a running server's live tasks would look interrupted.
 */
@SubCommand({ name: 'reconcile', description: 'Mark tasks interrupted by a stopped server as failed' })
export class ReconcileTasksCommand extends CommandRunner {
  async run(_args: string[], options: ReconcileOptions = {}): Promise<void> {
    @Module({ imports: [A2aConfigModule.forRoot({ SUPERQODE_A2A_TASK_STORE_PATH: options.taskStore }), ConfiguredTasksModule] })
    class ReconcileModule {}
    const ctx = await NestFactory.createApplicationContext(ReconcileModule, { logger: ['error'], abortOnError: false });
    try {
      const reconciler = ctx.get(TaskReconciler);
      const found = await reconciler.findInterrupted();
      if (!options.dryRun) await reconciler.reconcile(found);
      for (const t of found) {
        const run = t.runId ? ` run=${t.runId}` : '';
        process.stdout.write(`${options.dryRun ? 'would mark' : 'marked'} failed: task=${t.taskId} context=${t.contextId} was=${t.state}${run}\n`);
      }
      process.stdout.write(`${found.length} interrupted task(s)${options.dryRun ? ' (dry run: nothing changed)' : ''}\n`);
    } finally {
      await ctx.close();
    }
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
