import type { A2AClient } from '../client/a2a-client';
import { sendReply, type ReplyProgress } from './reply-stream';

/** An agent whose stream fails before its first event and whose send returns a working task. */
function brokenStreamAgent(calls: string[]): A2AClient {
  const task = (state: string, text?: string) => ({
    kind: 'task',
    id: 't9',
    contextId: 'c9',
    status: { state },
    artifacts: text ? [{ artifactId: 'a', parts: [{ kind: 'text', text }] }] : [],
  });
  return {
    // eslint-disable-next-line require-yield
    stream: async function* () {
      calls.push('stream');
      throw new Error('stream refused (HTTP 500)');
    },
    send: (_text: string, o: { blocking?: boolean; contextId?: string }) => {
      calls.push(`send blocking=${String(o.blocking)} context=${o.contextId}`);
      return Promise.resolve(task('working'));
    },
    getTask: (id: string) => {
      calls.push(`get ${id}`);
      return Promise.resolve(task('completed', 'the whole answer'));
    },
  } as unknown as A2AClient;
}

describe('sendReply (stream, else one send)', () => {
  it('falls back to one send (returnImmediately + GetTask) when the stream fails first', async () => {
    const calls: string[] = [];
    const seen: ReplyProgress[] = [];
    const done = await sendReply(
      brokenStreamAgent(calls),
      'hi',
      { contextId: 'c9' },
      { streaming: true, signal: new AbortController().signal, onProgress: (p) => seen.push(p) },
    );
    expect(calls).toEqual(['stream', 'send blocking=false context=c9', 'get t9']);
    expect(done).toMatchObject({ fellBack: true, state: 'completed', text: 'the whole answer' });
    expect(seen.map((p) => p.state)).toEqual(['working', 'completed']);
  });
});
