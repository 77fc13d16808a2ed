import type { Part, Task } from '@a2a-js/sdk';
import { joinTextParts } from './joined-text-parts';

const text = (value: string, extra: Partial<Part> = {}): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
  ...extra,
});
const aTask = (parts: Part[]): Task =>
  ({
    id: 't',
    contextId: 'c',
    status: undefined,
    history: [],
    metadata: {},
    artifacts: [
      {
        artifactId: 'a',
        name: 'answer',
        description: '',
        parts,
        metadata: undefined,
        extensions: [],
      },
    ],
  }) as unknown as Task;

describe(joinTextParts.name, () => {
  it('joins consecutive plain text parts into one, in order', () => {
    const task = joinTextParts(
      aTask(['Done: ', 'create', 'd hell', 'o.txt', ''].map((t) => text(t))),
    );
    expect(task.artifacts[0].parts).toEqual([text('Done: created hello.txt')]);
  });

  it('keeps parts with a filename, metadata, another media type or another kind apart', () => {
    const data: Part = {
      content: { $case: 'data', value: { a: 1 } },
      metadata: undefined,
      filename: '',
      mediaType: 'application/json',
    };
    const parts = [
      text('a'),
      text('b'),
      text('diff', { filename: 'x.diff' }),
      text('c', { mediaType: 'text/markdown' }),
      data,
      text('d'),
      text('e', { metadata: { k: 1 } }),
    ];
    const joined = joinTextParts(aTask(parts)).artifacts[0].parts;
    expect(joined.map((p) => (p.content as { value: unknown }).value)).toEqual([
      'ab',
      'diff',
      'c',
      { a: 1 },
      'd',
      'e',
    ]);
  });
});
