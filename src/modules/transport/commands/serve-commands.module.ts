import { Module } from '@nestjs/common';
import { ServeA2aCommand, ServeCommand } from './serve-a2a.command';

/** `superqode serve a2a`: the server is built from its flags by `startServer` (`src/bootstrap.ts`). */
@Module({ providers: [ServeCommand, ServeA2aCommand] })
export class ServeCommandsModule {}
