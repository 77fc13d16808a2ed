import { programsRun, RISKY_ASSIGNMENT } from './command-launchers';
import { type ShellNode, withShellSyntax } from './shell-parser';

/**
 * A checked reading of a bash command line, for `allowed_commands` and permission rules.
 * - `commands`: each simple command's words (quotes removed from literal words, redirections
 *   dropped), including those inside `( )`, `{ }`, `$( )` and backticks (inner commands come
 *   before the command whose word contains them), then what launchers run (`env rm x` → `rm x`).
 * - `programs`: every program name the line runs, launchers unwrapped (`env rm x` → `env`,
 *   `rm`); `undefined` when a command name is not a literal word.
 * - `problem`: set when the line uses anything the checker cannot classify with certainty
 *   (a syntax error, a backslash outside single quotes, here-documents, process or arithmetic
 *   substitution, functions, control structures, comments, a launcher such as `bash -c`);
 *   `commands` is then best effort and the line must be refused.
 */
export interface CommandLineAnalysis {
  commands: string[][];
  programs: string[];
  problem?: string;
}

/** Nodes whose children are statements, operators and redirections. */
const CONTAINERS = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'redirected_statement',
  'negated_command',
]);

/** Operator tokens that only join, group or redirect. */
const OPERATORS = new Set(
  [
    ';',
    '&&',
    '||',
    '|',
    '|&',
    '&',
    '>',
    '>>',
    '<',
    '&>',
    '&>>',
    '>&',
    '<&',
    '>|',
    '<<<',
    '(',
    ')',
  ].concat(['{', '}', '!', '\n', '$(', '`', '"', '=', '+=', '$', '${']),
);

/** Argument parts that expand but never start a program by themselves. */
const LEAVES = new Set(['word', 'number', 'raw_string', 'ansi_c_string', 'string_content']);

const PLAIN_EXPANSION = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

class Uncheckable extends Error {}

class CommandLineWalker {
  readonly commands: string[][] = [];

  walk(node: ShellNode): void {
    if (node.type === 'ERROR' || node.isMissing) this.fail('the line does not parse as bash');
    if (CONTAINERS.has(node.type)) return this.children(node, (child) => this.walk(child));
    if (node.type === 'command') return this.command(node);
    if (node.type === 'variable_assignment') return void this.assignment(node);
    if (node.type === 'file_redirect' || node.type === 'herestring_redirect')
      return this.redirect(node);
    this.fail(`cannot check ${describeNode(node)}`);
  }

  fail(problem: string): never {
    throw new Uncheckable(problem);
  }

  /** Visits named children; operator tokens must be known and gaps only blanks. */
  private children(node: ShellNode, visit: (child: ShellNode) => void): void {
    let at = node.startIndex;
    for (const child of node.children) {
      if (!child) continue;
      this.gap(node, at, child.startIndex);
      at = child.endIndex;
      if (child.isNamed) visit(child);
      else if (!OPERATORS.has(child.type) || child.isMissing)
        this.fail(`cannot check ${JSON.stringify(child.type)}`);
    }
    this.gap(node, at, node.endIndex);
  }

  private gap(node: ShellNode, from: number, to: number): void {
    const text = node.text.slice(from - node.startIndex, to - node.startIndex);
    if (!/^[ \t\n]*$/.test(text)) this.fail(`cannot check ${JSON.stringify(text.trim())}`);
  }

  private command(node: ShellNode): void {
    const words: string[] = [];
    this.children(node, (child) => {
      if (child.type === 'variable_assignment') this.assignment(child);
      else if (child.type === 'command_name') {
        const name = child.namedChildren[0];
        if (!name || child.namedChildCount !== 1) this.fail('cannot check the command name');
        words.push(this.word(name));
      } else if (child.type.endsWith('_redirect')) this.redirect(child);
      else words.push(this.word(child));
    });
    if (words.length > 0) this.commands.push(words);
  }

  private assignment(node: ShellNode): string {
    const [name, value] = node.namedChildren;
    if (!name || name.type !== 'variable_name') this.fail('cannot check an array assignment');
    if (RISKY_ASSIGNMENT.test(name.text)) this.fail(`refusing to set ${name.text}`);
    if (value) this.word(value);
    return node.text;
  }

  private redirect(node: ShellNode): void {
    if (node.type === 'heredoc_redirect') this.fail('cannot check here-documents');
    this.children(node, (child) => {
      if (child.type !== 'file_descriptor') this.word(child);
    });
  }

  /** A word's value with quotes removed; walks the commands substituted into it. */
  private word(node: ShellNode): string {
    const { type, text } = node;
    if (type === 'ERROR' || node.isMissing) this.fail('the line does not parse as bash');
    if (text.includes('\\') && type !== 'raw_string' && type !== 'ansi_c_string')
      this.fail(`cannot check a backslash outside single quotes: ${text}`);
    if (type === 'raw_string') return text.slice(1, -1);
    if (LEAVES.has(type) && /[$`]/.test(text) && type !== 'ansi_c_string')
      this.fail(`cannot check ${describeNode(node)}`);
    if (LEAVES.has(type)) return text;
    if (type === 'simple_expansion') return text;
    if (type === 'expansion' && PLAIN_EXPANSION.test(text)) return text;
    if (type === 'command_substitution') {
      this.children(node, (child) => this.walk(child));
      return text;
    }
    if (type === 'string' || type === 'concatenation') return this.compound(node);
    this.fail(`cannot check ${describeNode(node)}`);
  }

  /**
   * A double-quoted string or a concatenation: literal when every part is; text the grammar
   * left between parts must hold no `$` or backquote (inside `"..."`) or be empty.
   */
  private compound(node: ShellNode): string {
    const quoted = node.type === 'string';
    let at = node.startIndex + (quoted ? 1 : 0);
    let value = '';
    let literal = true;
    for (const child of node.namedChildren) {
      if (!child) continue;
      value += this.uncovered(node, at, child.startIndex, quoted);
      value += this.word(child);
      literal &&= ['string_content', 'word', 'raw_string', 'number', 'string'].includes(child.type);
      at = child.endIndex;
    }
    value += this.uncovered(node, at, node.endIndex - (quoted ? 1 : 0), quoted);
    return literal ? value : node.text;
  }

  private uncovered(node: ShellNode, from: number, to: number, quoted: boolean): string {
    const text = node.text.slice(from - node.startIndex, to - node.startIndex);
    if (quoted ? /[$`]/.test(text) : text !== '') this.fail(`cannot check ${describeNode(node)}`);
    return text;
  }
}

function describeNode(node: ShellNode): string {
  const text = node.text.length > 40 ? `${node.text.slice(0, 40)}...` : node.text;
  return `${node.type.replace(/_/g, ' ')}: ${text}`;
}

/**
 * Reads a bash command line with a real bash parser (tree-sitter-bash, see `shell-parser.ts`)
 * and lists the simple commands and programs it runs. Conservative: anything the reader cannot
 * classify with certainty becomes a `problem`, and the caller refuses the line.
 * @param line - The command line passed to `bash -c`.
 */
export async function analyzeCommandLine(line: string): Promise<CommandLineAnalysis> {
  return withShellSyntax(line, (root) => {
    const walker = new CommandLineWalker();
    try {
      walker.walk(root);
      const run = programsRun(walker.commands);
      const commands = [...walker.commands, ...run.launched];
      return { commands, programs: run.programs, problem: run.problem };
    } catch (error) {
      if (!(error instanceof Uncheckable)) throw error;
      return { commands: walker.commands, programs: [], problem: error.message };
    }
  });
}

/**
 * Checks every program a line runs against `allowed_commands` (launchers unwrapped: `env`,
 * `nohup`, `timeout`... need the launched program listed too).
 * @param line - The command line.
 * @param allowed - Bare command names; empty means every command is allowed.
 * @returns `undefined` when allowed, otherwise why the line is refused.
 */
export async function refuseUnlistedCommands(
  line: string,
  allowed: readonly string[],
): Promise<string | undefined> {
  if (allowed.length === 0) return undefined;
  const { programs, problem } = await analyzeCommandLine(line);
  if (problem) return `cannot check the command line against allowed_commands: ${problem}`;
  const unlisted = programs.find((name) => !allowed.includes(name));
  if (unlisted === undefined) return undefined;
  return `command not in allowed_commands (${allowed.join(', ')}): ${unlisted}`;
}
