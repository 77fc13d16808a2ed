import { randomUUID } from 'node:crypto';
import {
  RoundRobinProxy,
  TEST_REDIS_URL,
  clusterServicesAvailable,
  kill,
  startInstance,
} from '../utils/cluster';
import type { Instance } from '../utils/cluster';
import { createTestDatabase } from '../utils/postgres';
import type { TestDatabase } from '../utils/postgres';

(clusterServicesAvailable() ? describe : describe.skip)(
  'shared rate limits: 10 per minute across two instances with --redis-url (issue #15)',
  () => {
    let database: TestDatabase;
    let proxy: RoundRobinProxy;
    const instances: Instance[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
      proxy = await RoundRobinProxy.start();
      const env = {
        SUPERQODE_A2A_DATABASE_URL: database.url,
        SUPERQODE_A2A_REDIS_URL: TEST_REDIS_URL ?? '',
        SUPERQODE_A2A_MIGRATE: 'true',
        SUPERQODE_A2A_ANONYMOUS_PER_MINUTE: '10',
        SUPERQODE_A2A_LOG_LEVEL: 'log',
      };
      instances.push(...(await Promise.all([startInstance(env), startInstance(env)])));
      proxy.targets = instances.map((i) => i.url);
    }, 60_000);

    afterAll(async () => {
      for (const i of instances) await kill(i);
      await proxy?.close();
      await database?.drop();
    });

    it('the 11th anonymous call in a minute is refused whichever instance gets it', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await fetch(`${proxy.url}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: i,
            method: 'GetTask',
            params: { id: randomUUID() },
          }),
        });
        statuses.push(res.status);
        await res.text();
      }
      expect(new Set(proxy.served)).toEqual(new Set([0, 1]));
      expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
      expect(statuses[10]).toBe(429);
      expect(instances[0].logs.join('')).toContain(
        'Rate limits shared by all instances in Redis redis://127.0.0.1:',
      );
      expect(instances[0].logs.join('')).not.toContain(new URL(TEST_REDIS_URL!).password);
    });
  },
);
