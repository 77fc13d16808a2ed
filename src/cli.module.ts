import { Module } from '@nestjs/common';
import { ApiKeysModule } from './modules/auth/api-keys.module';
import { A2A_KEYS_COMMANDS } from './modules/auth/commands/a2a-keys.command';
import { ServeA2aCommand, ServeCommand } from './modules/transport/commands/serve-a2a.command';

/**
 * Commands of the `superqode` CLI (nest-commander). `serve a2a` builds the server's own container
 * from its flags; the other commands use feature modules directly, so a server setting that would
 * refuse to serve (e.g. a remote host) never stops `a2a-keys`.
 */
@Module({
  imports: [ApiKeysModule],
  providers: [ServeCommand, ServeA2aCommand, ...A2A_KEYS_COMMANDS],
})
export class CliModule {}
