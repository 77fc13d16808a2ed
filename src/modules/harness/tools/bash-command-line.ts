/**
 * A conservative reading of a bash command line, for `allowed_commands` and permission rules.
 * - `commands`: each simple command's words (quotes removed, redirection targets dropped),
 *   including those inside `( )`, `$( )`, backticks and `<( )`/`>( )`.
 * - `problem`: set when the line uses something this reader cannot check (unbalanced quotes or
 *   parentheses, substitution inside double quotes, function definitions); `commands` is then
 *   best effort.
 */
export interface CommandLineAnalysis {
  commands: string[][];
  problem?: string;
}

interface State {
  words: string[];
  word: string;
  inWord: boolean;
  dropNext: boolean;
  closer: ')' | '`';
}

const fresh = (closer: State['closer']): State => ({
  words: [],
  word: '',
  inWord: false,
  dropNext: false,
  closer,
});

class CommandLineReader {
  readonly commands: string[][] = [];
  problem?: string;
  private state = fresh(')');
  private readonly stack: State[] = [];
  private i = 0;

  constructor(private readonly line: string) {}

  read(): CommandLineAnalysis {
    for (this.i = 0; this.i < this.line.length && !this.problem; this.i++)
      this.step(this.line[this.i]);
    if (!this.problem && this.stack.length > 0) this.problem = 'unbalanced "(", "$(" or "`"';
    this.endCommand();
    for (const suspended of this.stack.reverse()) this.commands.push(suspended.words);
    return { commands: this.commands.filter((c) => c.length > 0), problem: this.problem };
  }

  private step(c: string): void {
    const prev = this.line[this.i - 1];
    const next = this.line[this.i + 1];
    if (c === '\\') this.escape();
    else if (c === "'") this.singleQuoted();
    else if (c === '"') this.doubleQuoted();
    else if (c === '`') this.backtick();
    else if (c === '$' && next === '(') this.open(true);
    else if (c === '(') this.paren(prev);
    else if (c === ')') this.close(')');
    else if (c === '&' && next === '>')
      return; // `&>file`: the `>` starts the redirection
    else if (c === '&' && (prev === '>' || prev === '<'))
      this.append(c); // `2>&1`
    else if (c === ';' || c === '\n' || c === '|' || c === '&') this.endCommand();
    else if (c === '<' || c === '>') this.redirect();
    else if (c === ' ' || c === '\t' || c === '\r') this.endWord();
    else this.append(c);
  }

  private append(text: string): void {
    this.state.word += text;
    this.state.inWord = true;
  }

  private endWord(): void {
    const s = this.state;
    if (s.inWord && !s.dropNext) s.words.push(s.word);
    if (s.inWord) s.dropNext = false;
    s.word = '';
    s.inWord = false;
  }

  private endCommand(): void {
    this.endWord();
    if (this.state.words.length > 0) this.commands.push(this.state.words);
    this.state.words = [];
    this.state.dropNext = false;
  }

  private escape(): void {
    const next = this.line[this.i + 1];
    this.i++;
    if (next !== '\n' && next !== undefined) this.append(next);
  }

  private singleQuoted(): void {
    const end = this.line.indexOf("'", this.i + 1);
    if (end < 0) return void (this.problem = 'unterminated single quote');
    this.append(this.line.slice(this.i + 1, end));
    this.i = end;
  }

  private doubleQuoted(): void {
    let text = '';
    for (let j = this.i + 1; j < this.line.length; j++) {
      const c = this.line[j];
      if (c === '"') {
        this.append(text);
        this.i = j;
        return;
      }
      if (c === '`' || (c === '$' && this.line[j + 1] === '(')) {
        return void (this.problem = 'command substitution inside double quotes');
      }
      if (c === '\\' && '$`"\\\n'.includes(this.line[j + 1] ?? '')) j++;
      text += this.line[j];
    }
    this.problem = 'unterminated double quote';
  }

  /** Starts a nested command list; the outer word keeps a `$` so it never passes as a name. */
  private open(skipParen: boolean): void {
    this.append('$');
    if (skipParen) this.i++;
    this.stack.push(this.state);
    this.state = fresh(')');
  }

  private paren(prev: string | undefined): void {
    if (prev === '<' || prev === '>') return this.open(false);
    if (this.state.inWord || this.state.words.length > 0) {
      return void (this.problem = 'unsupported "(" after a word (function definition?)');
    }
    this.stack.push(this.state);
    this.state = fresh(')');
  }

  private backtick(): void {
    if (this.state.closer === '`' && this.stack.length > 0) return this.close('`');
    this.append('$');
    this.stack.push(this.state);
    this.state = fresh('`');
  }

  private close(closer: State['closer']): void {
    const outer = this.stack.pop();
    if (!outer || this.state.closer !== closer)
      return void (this.problem = `unbalanced "${closer}"`);
    this.endCommand();
    this.state = outer;
  }

  private redirect(): void {
    const s = this.state;
    if (s.inWord && /^\d+$/.test(s.word)) {
      s.word = '';
      s.inWord = false;
    } else {
      this.endWord();
    }
    s.dropNext = true;
  }
}

/**
 * Splits a bash command line into simple commands: on `;`, `&&`, `||`, `|`, `&`, newlines,
 * and into `( )`, `$( )`, backticks and process substitution. Conservative: when in doubt it
 * reports a `problem` rather than guessing. `#` is not treated as a comment.
 * @param line - The command line passed to `bash -c`.
 */
export function analyzeCommandLine(line: string): CommandLineAnalysis {
  return new CommandLineReader(line).read();
}

/** First words that cannot be checked: expansions, globs, braces, assignments. */
const UNCHECKABLE_NAME = /[$*?[\]{}~=]/;

/**
 * Checks every simple command's first word against `allowed_commands`.
 * @param line - The command line.
 * @param allowed - Bare command names; empty means every command is allowed.
 * @returns `undefined` when allowed, otherwise why the line is refused.
 */
export function refuseUnlistedCommands(
  line: string,
  allowed: readonly string[],
): string | undefined {
  if (allowed.length === 0) return undefined;
  const { commands, problem } = analyzeCommandLine(line);
  if (problem) return `cannot check the command line against allowed_commands: ${problem}`;
  for (const [name] of commands) {
    if (UNCHECKABLE_NAME.test(name))
      return `cannot check command name against allowed_commands: ${name}`;
    if (!allowed.includes(name)) {
      return `command not in allowed_commands (${allowed.join(', ')}): ${name}`;
    }
  }
  return undefined;
}
