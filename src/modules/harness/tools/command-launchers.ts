/**
 * Variables a command line may not set (prefix `FOO=1 cmd`, standalone `FOO=1`, or through
 * `env`): they change which program a name runs, or make bash, the dynamic loader or a listed
 * program (git's pager, editor, ssh command...) run something else.
 */
export const RISKY_ASSIGNMENT =
  /^(PATH|IFS|ENV|BASH_ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|CDPATH|GLOBIGNORE|HOME|XDG_CONFIG_HOME)$|^(LD_|BASH_|DYLD_|GIT_)|EDITOR|PAGER|SHELL|_COMMAND$/;

/**
 * Programs and builtins refused outright, even when listed: they run code the checker cannot
 * see (a shell or `eval` on a string, `xargs` on its input, `sudo`...), or evaluate arithmetic
 * in their arguments, where bash runs `$( )` found in array subscripts (`read 'a[$(id)]'`).
 */
export const EVALUATORS = new Set(
  ['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'busybox', 'eval']
    .concat(['source', '.', 'trap', 'let', 'declare', 'typeset', 'local', 'readonly', 'mapfile'])
    .concat(['readarray', 'read', 'unset', 'builtin', 'enable', 'alias', 'bind', 'complete'])
    .concat(['compgen', 'fc', 'xargs', 'parallel', 'sudo', 'su', 'doas', 'watch', 'script'])
    .concat(['coproc', 'ssh', 'strace', 'ltrace', 'chroot', 'unshare', 'nsenter', 'setsid'])
    // `hash -p` binds a name to any file; `getopts` assigns any variable (PATH included).
    .concat(['hash', 'getopts']),
);

/** Launchers that run the rest of their words as a command: that command is checked too. */
const WRAPPERS = new Set(['env', 'command', 'exec', 'nohup', 'time', 'nice', 'timeout']);

/** `find` actions that run a program. */
const FIND_EXEC = /^-(exec|execdir|ok|okdir)$/;

/** `test` / `[` operators that evaluate their operands as arithmetic or variable names. */
const TEST_ARITHMETIC = /^-(eq|ne|lt|le|gt|ge|v|R)$/;

/** A name bash looks up as-is: no quoting, expansion, glob or path left to resolve. */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;

/** Programs a line runs, or why they cannot be told. */
export interface ProgramsRun {
  programs: string[];
  /** The commands launchers run (`env A=1 rm x` → `rm x`), as words. */
  launched: string[][];
  problem?: string;
}

/**
 * Every program the simple commands run, launchers unwrapped under this policy:
 * {@link EVALUATORS} are refused; {@link WRAPPERS} (without options, `timeout DURATION`
 * aside) count as programs and so does what they launch; `find` with `-exec`-like actions,
 * `printf -v`, `wait -p`, arithmetic `test` operators and `export` of a
 * {@link RISKY_ASSIGNMENT} name are refused. A name with a `/` is refused (a
 * listed name means the program found on PATH).
 * @param commands - Simple commands' words, from the command-line walker.
 */
export function programsRun(commands: readonly string[][]): ProgramsRun {
  const run: ProgramsRun = { programs: [], launched: [] };
  for (const words of commands) {
    run.problem = unwrap(words, run);
    if (run.problem) break;
  }
  return run;
}

function unwrap(words: readonly string[], { programs, launched }: ProgramsRun): string | undefined {
  let rest = words;
  while (rest.length > 0) {
    if (rest !== words) launched.push([...rest]);
    const [name, ...args] = rest;
    if (!PLAIN_NAME.test(name) && name !== '[') return `cannot check the command name ${name}`;
    if (EVALUATORS.has(name)) return `${name} runs code that cannot be checked`;
    programs.push(name);
    const problem = argumentProblem(name, args);
    if (problem || !WRAPPERS.has(name)) return problem;
    let skip = 0;
    if (name === 'timeout' && args.length > 0) skip = 1;
    while (name === 'env' && skip < args.length && args[skip].includes('=')) {
      if (RISKY_ASSIGNMENT.test(args[skip].split('=')[0])) return `refusing to set ${args[skip]}`;
      skip++;
    }
    if (args[skip]?.startsWith('-')) return `cannot check ${name} with options (${args[skip]})`;
    rest = args.slice(skip);
  }
  return undefined;
}

function argumentProblem(name: string, args: readonly string[]): string | undefined {
  if (name === 'find' && args.some((a) => FIND_EXEC.test(a))) return 'find -exec runs programs';
  if (name === 'printf' && args[0] === '-v') return 'printf -v evaluates array subscripts';
  if (name === 'wait' && args.includes('-p')) return 'wait -p assigns a variable';
  const risky = name === 'export' && args.find((a) => RISKY_ASSIGNMENT.test(a.split('=')[0]));
  if (risky) return `refusing to set ${risky}`;
  if ((name === 'test' || name === '[') && args.some((a) => TEST_ARITHMETIC.test(a)))
    return `${name} evaluates arithmetic operands`;
  return undefined;
}
