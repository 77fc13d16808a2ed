import { Command, CommandRunner, Option, SubCommand } from 'nest-commander';
import { describeStore } from '../../../common/database/database-url';
import { runStoreMigrations } from '../../../common/database/store-migrations';
import { loadEnv } from '../../../config/load-env';
import { harnessDataSourceOptions } from '../../harness/ledger/harness-ledger-datasource';
import { tasksDataSourceOptions } from '../tasks-datasource';
import type { StoreLocation } from '../../../common/database/store-data-source';
import { DataSource } from 'typeorm';
import type { DataSourceOptions } from 'typeorm';

/** Flags of `superqode db migrate`. */
interface DbMigrateOptions {
  databaseUrl?: string;
  taskStore?: string;
  harnessStore?: string;
}

/** The password of a URL, replaced wherever it appears in a message (driver errors may quote it). */
function scrub(message: string, url: string | null): string {
  if (!url) return message;
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    return message.split(url).join('(database URL)');
  }
  return (password ? message.split(password).join('***') : message)
    .split(url)
    .join('(database URL)');
}

/**
 * `superqode db migrate [--database-url URL] [--task-store PATH] [--harness-store PATH]`: runs the
 * pending migrations of the task store and the harness ledger (issue #15). On PostgreSQL
 * (`--database-url` or `SUPERQODE_A2A_DATABASE_URL`) under an advisory lock, so it is safe
 * beside instances starting with `--migrate`; without a URL on the SQLite files (which servers
 * also migrate at start). Prints each migration applied; the URL's password is never printed.
 * Exit 1 when a store cannot be reached or a migration fails.
 */
@SubCommand({
  name: 'migrate',
  description: 'Run pending migrations of the task store and the harness ledger',
})
export class DbMigrateCommand extends CommandRunner {
  async run(_args: string[], options: DbMigrateOptions = {}): Promise<void> {
    const env = loadEnv({
      SUPERQODE_A2A_DATABASE_URL: options.databaseUrl,
      SUPERQODE_A2A_TASK_STORE_PATH: options.taskStore,
      SUPERQODE_A2A_HARNESS_STORE_PATH: options.harnessStore,
    });
    const url = env.SUPERQODE_A2A_DATABASE_URL ?? null;
    const stores: [string, DataSourceOptions, string | null][] = [
      [
        'tasks',
        tasksDataSourceOptions(this.location(url, env.SUPERQODE_A2A_TASK_STORE_PATH)),
        env.SUPERQODE_A2A_TASK_STORE_PATH,
      ],
      [
        'harness ledger',
        harnessDataSourceOptions(this.location(url, env.SUPERQODE_A2A_HARNESS_STORE_PATH)),
        env.SUPERQODE_A2A_HARNESS_STORE_PATH,
      ],
    ];
    for (const [name, options, path] of stores) {
      const where = describeStore(url, path);
      try {
        // Opened without migrating, so each applied migration is reported (PostgreSQL: under the lock).
        const source = await new DataSource({
          ...options,
          migrationsRun: false,
        } as DataSourceOptions).initialize();
        try {
          const applied = await runStoreMigrations(source);
          for (const m of applied) process.stdout.write(`${name}: applied ${m}\n`);
          process.stdout.write(`${name}: schema current (${where})\n`);
        } finally {
          await source.destroy();
        }
      } catch (error) {
        process.stderr.write(
          `error: ${name} (${where}): ${scrub((error as Error).message, url)}\n`,
        );
        process.exitCode = 1;
        return;
      }
    }
  }

  private location(url: string | null, path: string): StoreLocation {
    return url ? { path: null, databaseUrl: url, migrate: true } : { path };
  }

  @Option({
    flags: '--database-url <url>',
    description: 'PostgreSQL URL (or SUPERQODE_A2A_DATABASE_URL)',
  })
  parseDatabaseUrl(v: string): string {
    return v;
  }

  @Option({
    flags: '--task-store <path>',
    description: 'SQLite file of the task store (without a database URL)',
  })
  parseTaskStore(v: string): string {
    return v;
  }

  @Option({
    flags: '--harness-store <path>',
    description: 'SQLite file of the harness ledger (without a database URL)',
  })
  parseHarnessStore(v: string): string {
    return v;
  }
}

/** `superqode db`: parent of `db migrate`; alone it prints usage and exits 2. */
@Command({
  name: 'db',
  description: 'Database maintenance: migrate',
  subCommands: [DbMigrateCommand],
})
export class DbCommand extends CommandRunner {
  async run(): Promise<void> {
    process.stdout.write('Usage: superqode db migrate [--database-url URL] (see --help)\n');
    process.exitCode = 2;
  }
}

/** Every provider of the `db` command tree, for a CLI module's `providers`. */
export const DB_COMMANDS = [DbCommand, DbMigrateCommand];
