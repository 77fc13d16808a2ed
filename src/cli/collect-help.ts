import type { Command } from 'commander';

/**
 * The `--help` text of every command under `root`, keyed by its path below the root
 * (`''` for the root, `'serve a2a'`, `'harness run'`): exactly what commander prints on stdout
 * for `superqode [path…] --help` (no command adds help hooks).
 */
export function collectHelp(root: Command): Record<string, string> {
  const help: Record<string, string> = {};
  const visit = (cmd: Command, path: string[]): void => {
    help[path.join(' ')] = cmd.helpInformation();
    for (const sub of cmd.commands) visit(sub, [...path, sub.name()]);
  };
  visit(root, []);
  return help;
}
