import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { Clock } from '../../common/runtime/clock';
import { clusterServicesAvailable, TEST_REDIS_URL } from '../../../test/utils/cluster';
import { BoundedThrottlerStorage } from './bounded-throttler.storage';
import {
  RedisThrottlerStorage,
  rateLimitStorage,
  redactRedisUrl,
} from './shared-throttler.storage';

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('rate-limit storage shared in Redis (issue #15)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('redacts the password of a Redis URL', () => {
    expect(redactRedisUrl('redis://:s3cret@127.0.0.1:6379/0')).toBe('redis://127.0.0.1:6379/0');
    expect(redactRedisUrl('not a url s3cret')).toBe('redis://(unparsable URL)');
  });

  it('without a URL: this instance counts alone and says so (a warning on PostgreSQL)', () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const local = new BoundedThrottlerStorage(new Clock());
    expect(rateLimitStorage(null, local, false)).toBe(local);
    expect(log.mock.calls[0][0]).toMatch(/counted by this instance alone/);
    expect(rateLimitStorage(null, local, true)).toBe(local);
    expect(warn.mock.calls[0][0]).toMatch(/N instances allow N times each limit/);
  });

  it('while Redis does not answer, hits are counted locally (one warning) instead of failing', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const url = `redis://:pw@127.0.0.1:${await closedPort()}/0`;
    const s = new RedisThrottlerStorage(url, new BoundedThrottlerStorage(new Clock()));
    try {
      const hits = [];
      for (let i = 0; i < 3; i++)
        hits.push(await s.increment('caller|x', 60_000, 2, 60_000, 'caller'));
      expect(hits.map((h) => [h.totalHits, h.isBlocked])).toEqual([
        [1, false],
        [2, false],
        [3, true],
      ]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).not.toContain(':pw@');
    } finally {
      s.onModuleDestroy();
    }
  });

  (clusterServicesAvailable() ? it : it.skip)(
    'two instances count one window in Redis',
    async () => {
      jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
      const a = new RedisThrottlerStorage(
        TEST_REDIS_URL!,
        new BoundedThrottlerStorage(new Clock()),
      );
      const b = new RedisThrottlerStorage(
        TEST_REDIS_URL!,
        new BoundedThrottlerStorage(new Clock()),
      );
      const key = `caller|${randomUUID()}`;
      try {
        for (let i = 0; i < 5; i++) await a.increment(key, 60_000, 10, 60_000, 'caller');
        for (let i = 0; i < 5; i++) await b.increment(key, 60_000, 10, 60_000, 'caller');
        const eleventh = await b.increment(key, 60_000, 10, 60_000, 'caller');
        expect(eleventh).toMatchObject({ totalHits: 11, isBlocked: true });
      } finally {
        a.onModuleDestroy();
        b.onModuleDestroy();
      }
    },
  );
});
