import { Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { withCommandContext } from './command-context';

describe('withCommandContext (issue #13: no command builds a Nest application itself)', () => {
  it('is, with the server bootstrap, the only code in src/ that calls NestFactory', () => {
    const src = join(__dirname, '..');
    const hits = execFileSync(
      'grep',
      ['-rlE', 'NestFactory\\.', '--include=*.ts', '--exclude=*.spec.ts', src],
      { encoding: 'utf8' },
    );
    expect(
      hits
        .trim()
        .split('\n')
        .map((f) => f.slice(src.length + 1))
        .sort(),
    ).toEqual(['bootstrap.ts', 'cli/command-context.ts']);
  });

  it('runs the work in a context of the module, then closes it (shutdown hooks run)', async () => {
    const events: string[] = [];
    @Injectable()
    class Store implements OnApplicationShutdown {
      onApplicationShutdown(): void {
        events.push('closed');
      }
    }
    @Module({ providers: [Store] })
    class StoreModule {}
    const result = await withCommandContext(StoreModule, async (ctx) => {
      events.push(ctx.get(Store) instanceof Store ? 'used' : 'missing');
      return 42;
    });
    expect({ result, events }).toEqual({ result: 42, events: ['used', 'closed'] });
  });
});
