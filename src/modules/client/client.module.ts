import { Module } from '@nestjs/common';
import {
  A2aCallCommand,
  A2aCommand,
  A2aDiscoverCommand,
  A2aListCommand,
  A2aRemoveCommand,
} from './commands/a2a.command';
import {
  A2aCancelCommand,
  A2aGetCommand,
  A2aSubscribeCommand,
  A2aTasksCommand,
} from './commands/a2a-tasks.command';
import { ConnectA2aCommand, ConnectCommand } from './commands/connect-a2a.command';
import { ConnectionsStore } from './connections.store';

/**
 * The A2A client's CLI side: saved connections. The library itself (`A2AClient` in
 * `a2a-client.ts`) needs no Nest container and can be embedded directly.
 */
@Module({
  providers: [ConnectionsStore],
  exports: [ConnectionsStore],
})
export class ClientModule {}

/** Every provider of the `connect a2a` and `a2a` command trees, for a CLI module's `providers`. */
export const CLIENT_COMMANDS = [
  ConnectCommand,
  ConnectA2aCommand,
  A2aCommand,
  A2aListCommand,
  A2aCallCommand,
  A2aDiscoverCommand,
  A2aRemoveCommand,
  A2aGetCommand,
  A2aCancelCommand,
  A2aSubscribeCommand,
  A2aTasksCommand,
];
