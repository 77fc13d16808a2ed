/**
 * The value of `--env-file` on a command line (`--env-file PATH` or `--env-file=PATH`, the last
 * one given, options only: not after `--`); undefined when absent.
 * For commands whose settings are read when their container is built, before commander parses
 * the line (`a2a-keys`); `serve a2a` applies its `--env-file` while parsing.
 * @param words - The arguments after the script (`process.argv.slice(2)`).
 */
export function envFileFlagOf(words: readonly string[]): string | undefined {
  let path: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === '--') break;
    if (word === '--env-file' && i + 1 < words.length) path = words[++i];
    else if (word.startsWith('--env-file=')) path = word.slice('--env-file='.length);
  }
  return path;
}
