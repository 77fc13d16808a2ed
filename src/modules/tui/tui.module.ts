import { Module } from '@nestjs/common';
import { ClientModule } from '../client/client.module';
import { TuiCommand } from './tui.command';

/** `superqode tui`: the terminal screen, on the client library and its saved connections. */
@Module({ imports: [ClientModule], providers: [TuiCommand] })
export class TuiModule {}
