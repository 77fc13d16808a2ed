import { analyzeCommandLine, refuseUnlistedCommands } from './bash-command-line';

describe(analyzeCommandLine.name, () => {
  it.each([
    ['git status', [['git', 'status']]],
    ['a; b && c || d | e & f\ng', [['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g']]],
    ['echo "a;b" \'c|d\' e"x"y', [['echo', 'a;b', 'c|d', 'exy']]],
    ['git log > out.txt 2>&1', [['git', 'log']]],
    ['>out git log &>/dev/null', [['git', 'log']]],
    [
      'echo $(git rev-parse HEAD) done',
      [
        ['git', 'rev-parse', 'HEAD'],
        ['echo', '$(git rev-parse HEAD)', 'done'],
      ],
    ],
    [
      'echo `rm x`',
      [
        ['rm', 'x'],
        ['echo', '`rm x`'],
      ],
    ],
    ['(cd sub && make) ; { ls; }', [['cd', 'sub'], ['make'], ['ls']]],
    ['FOO=1 git "$(id)"', [['id'], ['git', '"$(id)"']]],
    ['x=$(id)', [['id']]],
    [
      'env A=1 nohup rm x',
      [
        ['env', 'A=1', 'nohup', 'rm', 'x'],
        ['nohup', 'rm', 'x'],
        ['rm', 'x'],
      ],
    ],
  ])('splits %j into simple commands', async (line, commands) => {
    expect(await analyzeCommandLine(line)).toMatchObject({ commands, problem: undefined });
  });

  it('lists the programs, launchers unwrapped', async () => {
    expect((await analyzeCommandLine('timeout 5 env A=1 ls | wc -l')).programs).toEqual([
      'timeout',
      'env',
      'ls',
      'wc',
    ]);
  });

  it.each([
    // #12.4: the escaped `>` is a literal argument; `bash -c` runs in the background.
    ['echo \\>& bash -c id', 'cannot check a backslash outside single quotes: \\>'],
    ['echo "unterminated', 'the line does not parse as bash'],
    ['cat <<EOF\nx\nEOF', 'cannot check heredoc redirect: <<EOF\nx\nEOF'],
    ['diff <(sort a) b', 'cannot check process substitution: <(sort a)'],
    ['echo $((1 + 2))', 'cannot check arithmetic expansion: $((1 + 2))'],
    ['echo ${x:-$(id)}', 'cannot check expansion: ${x:-$(id)}'],
    ['f() { rm x; }', 'cannot check function definition: f() { rm x; }'],
    ['if true; then rm x; fi', 'cannot check if statement: if true; then rm x; fi'],
    ['ls # rm x', 'cannot check comment: # rm x'],
    ['PATH=. ls', 'refusing to set PATH'],
    ['GIT_PAGER=id git log', 'refusing to set GIT_PAGER'],
    ['a[$(id)]=1 ls', 'cannot check an array assignment'],
    ['bash -c ls', 'bash runs code that cannot be checked'],
    ['eval ls', 'eval runs code that cannot be checked'],
    ['ls | xargs rm', 'xargs runs code that cannot be checked'],
    ["read 'a[$(id)]'", 'read runs code that cannot be checked'],
    ['find . -exec rm {} +', 'find -exec runs programs'],
    ['printf -v x y', 'printf -v evaluates array subscripts'],
    ['env -S id', 'cannot check env with options (-S)'],
    ['export PATH=.:$PATH; ls', 'cannot check declaration command: export PATH=.:$PATH'],
    ['getopts a PATH -a; ls', 'getopts runs code that cannot be checked'],
    ['$CMD x', 'cannot check the command name $CMD'],
    ['./ls', 'cannot check the command name ./ls'],
  ])('reports what it cannot check in %j', async (line, problem) => {
    expect((await analyzeCommandLine(line)).problem).toBe(problem);
  });
});

describe(refuseUnlistedCommands.name, () => {
  const allowed = ['git', 'ls', 'echo', 'cat', 'env'];
  const unlisted = (name: string) =>
    `command not in allowed_commands (git, ls, echo, cat, env): ${name}`;

  it.each([
    'git status',
    'git status && ls -la | echo',
    'echo $(git log -1) > /dev/null',
    'git diff 2>&1',
    'e"ch"o \'a b\' "$HOME" *.ts',
    'env LANG=C git log',
  ])('allows %j', async (line) => {
    expect(await refuseUnlistedCommands(line, allowed)).toBeUndefined();
  });

  it.each([
    ['rm -rf x', unlisted('rm')],
    ['git status; rm x', unlisted('rm')],
    ['git status\nrm x', unlisted('rm')],
    ['ls $(rm x)', unlisted('rm')],
    ['git "$(rm x)"', unlisted('rm')],
    ['env rm x', unlisted('rm')],
    [
      'echo \\>& bash -c id',
      'cannot check the command line against allowed_commands: cannot check a backslash ' +
        'outside single quotes: \\>',
    ],
  ])('refuses %j', async (line, reason) => {
    expect(await refuseUnlistedCommands(line, allowed)).toBe(reason);
  });

  it('allows anything when the list is empty', async () => {
    expect(await refuseUnlistedCommands('rm -rf x', [])).toBeUndefined();
  });
});
