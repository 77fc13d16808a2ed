/* eslint-disable @typescript-eslint/no-require-imports -- lazy: a command line loads only its own feature modules (issue #13) */
import { DynamicModule, Module, Type } from '@nestjs/common';

/**
 * The feature command modules of the CLI, one per command tree, each behind a `require()` thunk
 * so that a command line loads only the modules (and their imports: TypeORM, the AI SDK, the
 * harness, the TUI) of the commands it names.
 */
const COMMAND_MODULES = {
  serve: (): Type =>
    (
      require('./modules/transport/commands/serve-commands.module') as typeof import('./modules/transport/commands/serve-commands.module')
    ).ServeCommandsModule,
  a2aKeys: (): Type =>
    (
      require('./modules/auth/commands/a2a-keys-commands.module') as typeof import('./modules/auth/commands/a2a-keys-commands.module')
    ).A2aKeysCommandsModule,
  client: (): Type =>
    (
      require('./modules/client/commands/client-commands.module') as typeof import('./modules/client/commands/client-commands.module')
    ).ClientCommandsModule,
  harness: (): Type =>
    (
      require('./modules/harness/commands/harness-commands.module') as typeof import('./modules/harness/commands/harness-commands.module')
    ).HarnessCommandsModule,
  tasks: (): Type =>
    (
      require('./modules/tasks/commands/task-commands.module') as typeof import('./modules/tasks/commands/task-commands.module')
    ).TaskCommandsModule,
  tui: (): Type =>
    (require('./modules/tui/tui.module') as typeof import('./modules/tui/tui.module')).TuiModule,
} as const;

/** A feature command module's key in {@link COMMAND_MODULES}. */
export type CommandModuleKey = keyof typeof COMMAND_MODULES;

/** Every feature command module, in the order the full container imports them. */
export const ALL_COMMAND_MODULES = Object.keys(COMMAND_MODULES) as CommandModuleKey[];

/** The `a2a` subcommands of the client module (`a2a reconcile` comes from the tasks module). */
const CLIENT_A2A_SUBCOMMANDS = [
  'list',
  'call',
  'remove',
  'discover',
  'get',
  'cancel',
  'subscribe',
  'tasks',
];

/**
 * Which modules a command path needs, keyed by its first one or two words. `a2a` alone (usage,
 * `a2a help`, an unknown subcommand) gets both modules that add under `a2a`, so commander's help
 * and errors list every subcommand as the full container does.
 */
const MODULES_BY_PATH: Record<string, readonly CommandModuleKey[]> = {
  serve: ['serve'],
  'a2a-keys': ['a2aKeys'],
  connect: ['client'],
  a2a: ['client', 'tasks'],
  ...Object.fromEntries(CLIENT_A2A_SUBCOMMANDS.map((sub) => [`a2a ${sub}`, ['client']])),
  'a2a reconcile': ['client', 'tasks'],
  db: ['tasks'],
  harness: ['harness'],
  tui: ['tui'],
};

/**
 * The feature command modules a command line needs.
 * @param words - Arguments after the script (`process.argv.slice(2)`).
 * @returns The modules of the command tree the first word names (the first two for `a2a`);
 *   every module when the line starts with a flag, names no command or an unknown one, so
 *   commander's own help and errors stay those of the full CLI.
 */
export function commandModulesFor(words: readonly string[]): readonly CommandModuleKey[] {
  const [first, second] = words;
  if (first === undefined || first.startsWith('-')) return ALL_COMMAND_MODULES;
  return MODULES_BY_PATH[`${first} ${second}`] ?? MODULES_BY_PATH[first] ?? ALL_COMMAND_MODULES;
}

/**
 * The `superqode` CLI container (nest-commander), built by `createCli` (`src/cli/run-cli.ts`):
 * one feature command module per command tree, listed in {@link COMMAND_MODULES}. No command
 * builds a Nest application itself: `serve a2a` starts the server through `startServer`
 * (`src/bootstrap.ts`), and commands whose stores come from their flags open that one feature
 * module through `withCommandContext` (`src/cli/command-context.ts`). A server setting that would
 * refuse to serve (e.g. a remote host) never stops `a2a-keys`.
 */
@Module({})
export class CliModule {
  /**
   * The container of one command line: only the modules {@link commandModulesFor} names, loaded
   * on this call (issue #13: `a2a list` loads neither TypeORM, the harness nor the TUI).
   * @param words - Arguments after the script; omitted: every command (help snapshot, tests).
   */
  static for(words?: readonly string[]): DynamicModule {
    const keys = words === undefined ? ALL_COMMAND_MODULES : commandModulesFor(words);
    return { module: CliModule, imports: keys.map((key) => COMMAND_MODULES[key]()) };
  }
}
