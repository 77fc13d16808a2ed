import { Module } from '@nestjs/common';
import { ApiKeysModule } from './modules/auth/api-keys.module';
import { A2A_KEYS_COMMANDS } from './modules/auth/commands/a2a-keys.command';
import { HARNESS_COMMANDS } from './modules/harness/commands/harness.command';
import { ServeA2aCommand, ServeCommand } from './modules/transport/commands/serve-a2a.command';
import { CLIENT_COMMANDS, ClientModule } from './modules/client/client.module';
import { RECONCILE_COMMANDS } from './modules/tasks/commands/reconcile-tasks.command';
import { DB_COMMANDS } from './modules/tasks/commands/db-migrate.command';

/**
 * Commands of the `superqode` CLI (nest-commander). `serve a2a` builds the server's own container
 * from its flags; the other commands use feature modules directly, so a server setting that would
 * refuse to serve (e.g. a remote host) never stops `a2a-keys`.
 */
@Module({
  imports: [ApiKeysModule, ClientModule],
  providers: [
    ServeCommand,
    ServeA2aCommand,
    ...A2A_KEYS_COMMANDS,
    ...CLIENT_COMMANDS,
    ...HARNESS_COMMANDS,
    ...RECONCILE_COMMANDS,
    ...DB_COMMANDS,
  ],
})
export class CliModule {}
