import type { StreamResponse } from '@a2a-js/sdk';
import { printStream } from './stream-output';

const update = (text: string, append: boolean, lastChunk: boolean): StreamResponse =>
  ({
    payload: {
      $case: 'artifactUpdate',
      value: {
        taskId: 't-1',
        contextId: 'c-1',
        artifact: { artifactId: 'answer', name: 'answer', parts: [{ text }] },
        append,
        lastChunk,
      },
    },
  }) as unknown as StreamResponse;

async function printed(events: StreamResponse[]): Promise<{ out: string; answer: string }> {
  let out = '';
  const outcome = await printStream(
    (async function* () {
      yield* events;
    })(),
    { text: (chunk) => (out += chunk), status: () => undefined },
  );
  return { out, answer: outcome.answer };
}

describe(printStream.name, () => {
  it('joins appended chunks of one artifact as they arrive', async () => {
    const r = await printed([
      update('CLI ', false, false),
      update('sl', true, false),
      update('ept.', true, true),
    ]);
    expect(r).toEqual({ out: 'CLI slept.', answer: 'CLI slept.' });
  });

  it('prints only what a replacing update adds (a follower on another instance sends each state whole)', async () => {
    const r = await printed([update('CLI sl', false, false), update('CLI slept.', false, true)]);
    expect(r).toEqual({ out: 'CLI slept.', answer: 'CLI slept.' });
  });

  it('prints a replacement that does not extend the text on a new line; the answer is the new text', async () => {
    const r = await printed([update('Again ', false, false), update('Done.', false, true)]);
    expect(r).toEqual({ out: 'Again \nDone.', answer: 'Done.' });
  });
});
