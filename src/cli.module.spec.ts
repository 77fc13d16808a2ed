import { ALL_COMMAND_MODULES, commandModulesFor } from './cli.module';

describe(commandModulesFor.name, () => {
  it.each([
    [['serve', 'a2a'], ['serve']],
    [['a2a-keys', 'issue', '--name', 'x'], ['a2aKeys']],
    [['connect', 'a2a', 'http://127.0.0.1:1'], ['client']],
    [['a2a', 'list'], ['client']],
    [['a2a', 'tasks', 'list'], ['client']],
    [
      ['a2a', 'reconcile', '--dry-run'],
      ['client', 'tasks'],
    ],
    [['a2a'], ['client', 'tasks']],
    [
      ['a2a', 'bogus'],
      ['client', 'tasks'],
    ],
    [['db', 'migrate'], ['tasks']],
    [['harness', 'validate', 'coding'], ['harness']],
    [['tui'], ['tui']],
  ])('%j needs the modules %j', (words, keys) => {
    expect(commandModulesFor(words)).toEqual(keys);
  });

  it.each([[[]], [['--no-such-flag', 'a2a']], [['help', 'a2a']], [['a2a-key']]])(
    '%j (no known command first) gets every module, so commander answers as the full CLI',
    (words) => {
      expect(commandModulesFor(words)).toEqual(ALL_COMMAND_MODULES);
    },
  );
});
