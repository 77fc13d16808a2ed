import { analyzeCommandLine, refuseUnlistedCommands } from './bash-command-line';

describe(analyzeCommandLine.name, () => {
  it.each([
    ['git status', [['git', 'status']]],
    ['a; b && c || d | e & f\ng', [['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g']]],
    ['echo "a;b" \'c|d\' e\\;f', [['echo', 'a;b', 'c|d', 'e;f']]],
    ['\\rm x', [['rm', 'x']]],
    ['git log > out.txt 2>&1', [['git', 'log']]],
    ['>out git log &>/dev/null', [['git', 'log']]],
    [
      'echo $(git rev-parse HEAD) done',
      [
        ['git', 'rev-parse', 'HEAD'],
        ['echo', '$', 'done'],
      ],
    ],
    [
      'echo `rm x`',
      [
        ['rm', 'x'],
        ['echo', '$'],
      ],
    ],
    ['(cd sub && make) ; ls', [['cd', 'sub'], ['make'], ['ls']]],
    [
      'diff <(sort a) b',
      [
        ['sort', 'a'],
        ['diff', 'b'],
      ],
    ],
  ])('splits %j into simple commands', (line, commands) => {
    expect(analyzeCommandLine(line)).toEqual({ commands, problem: undefined });
  });

  it.each([
    ['echo "unterminated', 'unterminated double quote'],
    ["echo 'x", 'unterminated single quote'],
    ['echo "$(rm x)"', 'command substitution inside double quotes'],
    ['f() { rm x; }', 'unsupported "(" after a word (function definition?)'],
    ['echo $(ls', 'unbalanced "(", "$(" or "`"'],
    ['ls )', 'unbalanced ")"'],
  ])('reports what it cannot check in %j', (line, problem) => {
    expect(analyzeCommandLine(line).problem).toBe(problem);
  });
});

describe(refuseUnlistedCommands.name, () => {
  const allowed = ['git', 'ls', 'echo'];

  it.each([
    'git status',
    'git status && ls -la | echo',
    'echo $(git log -1) > /dev/null',
    'git diff 2>&1',
  ])('allows %j', (line) => expect(refuseUnlistedCommands(line, allowed)).toBeUndefined());

  it.each([
    ['rm -rf x', 'command not in allowed_commands (git, ls, echo): rm'],
    ['git status; rm x', 'command not in allowed_commands (git, ls, echo): rm'],
    ['git status\nrm x', 'command not in allowed_commands (git, ls, echo): rm'],
    ['ls $(rm x)', 'command not in allowed_commands (git, ls, echo): rm'],
    ['PATH=. git status', 'cannot check command name against allowed_commands: PATH=.'],
    ['$CMD x', 'cannot check command name against allowed_commands: $CMD'],
    ['{ git status; }', 'cannot check command name against allowed_commands: {'],
    [
      'git "$(rm x)"',
      'cannot check the command line against allowed_commands: command substitution inside double quotes',
    ],
  ])('refuses %j', (line, reason) => expect(refuseUnlistedCommands(line, allowed)).toBe(reason));

  it('allows anything when the list is empty', () => {
    expect(refuseUnlistedCommands('rm -rf x', [])).toBeUndefined();
  });
});
