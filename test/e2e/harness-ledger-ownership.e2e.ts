import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { HarnessEvent } from '../../src/modules/harness/protocol/harness-events';
import { CreateHarnessLedger1760000000000 } from '../../src/modules/harness/ledger/migrations/1760000000000-create-harness-ledger';
import {
  HarnessRunNotFoundError,
  HarnessSessionNotFoundError,
} from '../../src/modules/harness/protocol/harness-protocol.errors';
import { createTestHarness, specFrom } from '../fakes/harness-fixtures';
import type { TestHarness } from '../fakes/harness-fixtures';
import { createTestDatabase, storeBackends } from '../utils/postgres';
import type { TestDatabase } from '../utils/postgres';

function event(
  sessionId: string,
  runId: string,
  sequence: number,
  type: 'run.started' | 'message.delta',
): HarnessEvent {
  const data =
    type === 'run.started'
      ? {
          prompt: 'work',
          provider: 'openai',
          model: 'gpt-x',
          base_url: null,
          working_dir: tmpdir(),
        }
      : { text: `delta ${sequence}` };
  return {
    event_id: `${runId}-${type}-${sequence}-${Math.random()}`,
    session_id: sessionId,
    run_id: runId,
    sequence,
    timestamp: new Date().toISOString(),
    type,
    data,
  } as HarnessEvent;
}

describe.each(storeBackends())(
  'harness ledger ownership on %s: leases and database-allocated sequences (issues #13, #15)',
  (backend) => {
    let dir: string;
    let database: TestDatabase | undefined;
    const open: TestHarness[] = [];
    /** The ledger's location: a SQLite file in the test's directory, or the test's PostgreSQL database. */
    const ledgerAt = (file: string) =>
      database
        ? { storePath: null, databaseUrl: database.url, migrate: true }
        : { storePath: file };
    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'ledger-owner-'));
      database = backend === 'postgres' ? await createTestDatabase() : undefined;
    });
    afterEach(async () => {
      for (const h of open.splice(0)) await h.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('looks up ids holding U+0000 as absent (a context id from a request), never a driver error', async () => {
      const harness = await createTestHarness(ledgerAt(join(dir, 'harness.sqlite3')));
      open.push(harness);
      const { ledger } = harness;
      await expect(ledger.getSession('a2a-c\u0000x')).rejects.toBeInstanceOf(
        HarnessSessionNotFoundError,
      );
      await expect(ledger.getRun('r\u0000')).rejects.toBeInstanceOf(HarnessRunNotFoundError);
      await expect(ledger.listRuns({ sessionId: 'a2a-c\u0000x' })).resolves.toEqual([]);
    });

    it('two writers on one ledger file append to the same run with stale sequence hints and never collide (no UNIQUE events.run_id, events.sequence)', async () => {
      const file = join(dir, 'harness.sqlite3');
      const live = await createTestHarness(ledgerAt(file));
      const other = await createTestHarness(ledgerAt(file));
      open.push(live, other);
      const session = await live.controller.createSession({
        spec: specFrom('name: owners'),
        workingDir: dir,
      });
      await live.ledger.append(event(session.id, 'run-1', 1, 'run.started'));
      // The live run believes its next sequence is 2, then 3; the other writer appends in between.
      // (One after another: two connections of one thread cannot wait for each other's lock.)
      const interleaved: HarnessEvent[] = [];
      interleaved.push(await other.ledger.append(event(session.id, 'run-1', 2, 'message.delta')));
      interleaved.push(await live.ledger.append(event(session.id, 'run-1', 2, 'message.delta')));
      interleaved.push(await other.ledger.append(event(session.id, 'run-1', 2, 'message.delta')));
      interleaved.push(await live.ledger.append(event(session.id, 'run-1', 3, 'message.delta')));
      expect(interleaved.map((e) => e.sequence)).toEqual([2, 3, 4, 5]);
      const { events } = await live.ledger.showRun('run-1');
      expect(events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5]);
    });

    (backend === 'postgres' ? it : it.skip)(
      'on PostgreSQL, two writers appending to one run at the same time get distinct consecutive sequences',
      async () => {
        const live = await createTestHarness(ledgerAt(''));
        const other = await createTestHarness(ledgerAt(''));
        open.push(live, other);
        const session = await live.controller.createSession({
          spec: specFrom('name: racing'),
          workingDir: dir,
        });
        await live.ledger.append(event(session.id, 'run-1', 1, 'run.started'));
        // Truly concurrent: two pools, each append its own transaction, all in flight at once.
        const appended = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            (i % 2 ? live : other).ledger.append(event(session.id, 'run-1', 2, 'message.delta')),
          ),
        );
        expect(appended.map((e) => e.sequence).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 40 }, (_, i) => i + 2),
        );
        const { events } = await other.ledger.showRun('run-1');
        expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
        expect((await live.ledger.listRuns({ sessionId: session.id })).map((r) => r.id)).toEqual([
          'run-1',
        ]);
      },
    );

    it('markInterrupted with a cutoff leaves a run whose lease is renewed alone, and ends it once the lease is older than the cutoff', async () => {
      const h = await createTestHarness(ledgerAt(join(dir, 'harness.sqlite3')));
      open.push(h);
      const session = await h.controller.createSession({
        spec: specFrom('name: lease'),
        workingDir: dir,
      });
      await h.ledger.append(event(session.id, 'run-1', 1, 'run.started'));
      const renewedAt = Date.now() + 60_000;
      await h.ledger.renewRunLeases(renewedAt);
      expect(await h.ledger.orphanedRuns(renewedAt)).toEqual([]);
      expect(await h.ledger.markInterrupted('run-1', 'not yet', renewedAt)).toBeNull();
      expect((await h.ledger.getRun('run-1')).status).toBe('running');
      const [orphan] = await h.ledger.orphanedRuns(renewedAt + 1);
      expect(orphan.id).toBe('run-1');
      expect(orphan.owner).toMatch(/:\d+:[0-9a-f]{8}$/);
      expect(await h.ledger.markInterrupted('run-1', 'lease expired', renewedAt + 1)).toMatchObject(
        {
          sequence: 2,
          type: 'run.failed',
        },
      );
      expect((await h.ledger.getRun('run-1')).status).toBe('failed');
    });

    (backend === 'sqlite' ? it : it.skip)(
      'upgrades a ledger made by the old schema in place; its running run (never leased) is an orphan',
      async () => {
        const file = join(dir, 'harness.sqlite3');
        const old = new DataSource({
          type: 'better-sqlite3',
          database: file,
          migrations: [CreateHarnessLedger1760000000000],
          migrationsTableName: 'harness_migrations',
        });
        await old.initialize();
        await old.runMigrations();
        await old.query(
          `INSERT INTO sessions VALUES ('s-1', '2024-01-01T00:00:00.000Z', 'old', '/', '{}', '{}', '{}')`,
        );
        await old.query(
          `INSERT INTO runs (id, session_id, status, started_at, prompt_preview) VALUES ('r-1', 's-1', 'running', '2024-01-01T00:00:00.000Z', 'p')`,
        );
        await old.query(
          `INSERT INTO events VALUES ('r-1', 1, 'e-1', 'run.started', '{}', '2024-01-01T00:00:00.000Z')`,
        );
        await old.destroy();
        const h = await createTestHarness({ storePath: file });
        open.push(h);
        expect(await h.ledger.orphanedRuns(Date.now())).toEqual([{ id: 'r-1', owner: null }]);
        expect(
          await h.ledger.markInterrupted('r-1', 'interrupted before leases', Date.now()),
        ).toMatchObject({ sequence: 2 });
      },
    );
  },
);
