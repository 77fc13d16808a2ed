import { Module } from '@nestjs/common';
import { CLIENT_COMMANDS, ClientModule } from '../client.module';

/** `superqode connect a2a` and `superqode a2a list|call|remove|discover|get|cancel|subscribe|tasks`. */
@Module({ imports: [ClientModule], providers: [...CLIENT_COMMANDS] })
export class ClientCommandsModule {}
