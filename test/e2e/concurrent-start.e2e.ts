import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, post, V1 } from '../fixtures/builders';
import { startBuiltServer } from '../utils/built-server';
import type { BuiltServer } from '../utils/built-server';

describe('Servers started together on one working directory', () => {
  it('four built servers started at once on new SQLite stores (tasks and harness ledger) all come up, and each serves SendMessage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sq-together-'));
    const env = { SUPERQODE_A2A_HARNESS_STORE_PATH: join(dir, 'harness.sqlite3') };
    const started = await Promise.allSettled(
      Array.from({ length: 4 }, () => startBuiltServer(env, { dir })),
    );
    const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    try {
      expect(started.filter((r) => r.status === 'rejected')).toEqual([]);
      for (const server of servers) {
        const sent = await post(
          server.url,
          aJsonRpcRequest('SendMessage', { message: aMessage('which harness for rust') }),
          V1,
        );
        expect(sent.status).toBe(200);
        expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      }
      for (const server of servers) {
        expect(server.output()).not.toMatch(/already exists|Unable to connect to the database/);
      }
    } finally {
      await Promise.all(servers.map((s: BuiltServer) => s.stop()));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
