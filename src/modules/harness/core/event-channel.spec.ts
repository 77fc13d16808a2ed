import { EventChannel } from './event-channel';

async function drain<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe(EventChannel.name, () => {
  it('delivers items pushed before and after the consumer waits, then ends on close', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    const all = drain(channel);
    await Promise.resolve();
    channel.push(2);
    channel.close();
    channel.push(3);
    await expect(all).resolves.toEqual([1, 2]);
  });

  it('rejects after the queued items when failed', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    channel.fail(new Error('nope'));
    const it = channel[Symbol.asyncIterator]();
    await expect(it.next()).resolves.toEqual({ value: 1, done: false });
    await expect(it.next()).rejects.toThrow('nope');
  });

  it('stops delivering once the consumer leaves', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    for await (const x of channel) {
      expect(x).toBe(1);
      break;
    }
    channel.push(2);
    await expect(channel[Symbol.asyncIterator]().next()).resolves.toEqual({
      value: undefined,
      done: true,
    });
  });
});
