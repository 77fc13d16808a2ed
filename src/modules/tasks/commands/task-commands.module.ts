import { Module } from '@nestjs/common';
import { RECONCILE_COMMANDS } from './reconcile-tasks.command';

/** `superqode a2a reconcile` (a subcommand of the client's `a2a` group), on its `--task-store`. */
@Module({ providers: [...RECONCILE_COMMANDS] })
export class TaskCommandsModule {}
