import { Module } from '@nestjs/common';
import { A2aConfigModule } from './config/a2a-config.module';
import { ApiKeysModule } from './modules/auth/api-keys.module';
import { A2A_KEYS_COMMANDS } from './modules/auth/commands/a2a-keys.command';
import { ServeA2aCommand, ServeCommand } from './modules/transport/commands/serve-a2a.command';

/** Commands of the `superqode` CLI (nest-commander). */
@Module({
  imports: [A2aConfigModule.forRoot(), ApiKeysModule],
  providers: [ServeCommand, ServeA2aCommand, ...A2A_KEYS_COMMANDS],
})
export class CliModule {}
