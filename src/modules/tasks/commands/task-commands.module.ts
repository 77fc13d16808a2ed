import { Module } from '@nestjs/common';
import { DB_COMMANDS } from './db-migrate.command';
import { RECONCILE_COMMANDS } from './reconcile-tasks.command';

/**
 * `superqode a2a reconcile` (a subcommand of the client's `a2a` group), on its `--task-store`, and
 * `superqode db migrate` (PostgreSQL migrations of both stores).
 */
@Module({ providers: [...RECONCILE_COMMANDS, ...DB_COMMANDS] })
export class TaskCommandsModule {}
