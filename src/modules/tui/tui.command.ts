import { Command, CommandRunner } from 'nest-commander';
import { ConnectionsStore } from '../client/connections.store';
import { TuiInput } from './tui-input';
import { TuiSession } from './tui-session';
import { renderScreen } from './tui-view';

/**
 * `superqode tui [url]`: the terminal screen (`:connect a2a`): talk to any A2A agent. With a URL
 * it opens the A2A screen and connects; without one it starts at the command line
 * (`:connect a2a URL`, `:connect`, `:a2a list|call|discover`). Needs a terminal (TTY);
 * exit 2 without one. Exit 0 when closed (Ctrl-C or `:q`).
 */
@Command({
  name: 'tui',
  arguments: '[url]',
  argsDescription: { url: 'agent base URL or agent card URL to connect to at once' },
  description: 'Terminal screen: connect to an A2A agent and talk to it',
})
export class TuiCommand extends CommandRunner {
  constructor(private readonly store: ConnectionsStore) {
    super();
  }

  async run([url]: string[]): Promise<void> {
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      process.stderr.write(
        'error: superqode tui needs a terminal (stdin and stdout a TTY); use connect a2a / a2a call in scripts\n',
      );
      process.exitCode = 2;
      return;
    }
    const view: { screen?: Awaited<ReturnType<typeof renderScreen>> } = {};
    const session = new TuiSession(this.store, () => view.screen?.rerender());
    const input = new TuiInput(session, this.store, () => view.screen?.unmount());
    const screen = await renderScreen(session, input);
    view.screen = screen;
    if (url) void session.openA2a(url);
    await screen.closed;
    await session.dispose();
  }
}
