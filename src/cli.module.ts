import { Module } from '@nestjs/common';
import { A2aKeysCommandsModule } from './modules/auth/commands/a2a-keys-commands.module';
import { ClientCommandsModule } from './modules/client/commands/client-commands.module';
import { HarnessCommandsModule } from './modules/harness/commands/harness-commands.module';
import { TaskCommandsModule } from './modules/tasks/commands/task-commands.module';
import { ServeCommandsModule } from './modules/transport/commands/serve-commands.module';
import { TuiModule } from './modules/tui/tui.module';

/**
 * The one container of the `superqode` CLI (nest-commander), built by `createCli`
 * (`src/cli/run-cli.ts`): one feature command module per command tree. No command builds a Nest
 * application itself: `serve a2a` starts the server through `startServer` (`src/bootstrap.ts`),
 * and commands whose stores come from their flags open that one feature module through
 * `withCommandContext` (`src/cli/command-context.ts`). A server setting that would refuse to
 * serve (e.g. a remote host) never stops `a2a-keys`.
 */
@Module({
  imports: [
    ServeCommandsModule,
    A2aKeysCommandsModule,
    ClientCommandsModule,
    HarnessCommandsModule,
    TaskCommandsModule,
    TuiModule,
  ],
})
export class CliModule {}
