/**
 * The OSC 52 "set clipboard" sequence for `text` (selection `c`, BEL-terminated), understood by
 * xterm, iTerm2, kitty, WezTerm, Windows Terminal and tmux (`set-clipboard on`); it crosses SSH.
 * @see https://invisible-island.net/xterm/ctlseqs/ctlseqs.html (Operating System Commands, 52)
 */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}
