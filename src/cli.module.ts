import { Module } from '@nestjs/common';
import { ServeA2aCommand, ServeCommand } from './modules/transport/commands/serve-a2a.command';

/** Commands of the `superqode` CLI (nest-commander). */
@Module({ providers: [ServeCommand, ServeA2aCommand] })
export class CliModule {}
