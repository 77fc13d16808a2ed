import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessModule } from '../../src/modules/harness/harness.module';
import { HarnessLedgerService } from '../../src/modules/harness/ledger/harness-ledger.service';
import type { HarnessEvent } from '../../src/modules/harness/protocol/harness-events';
import { HarnessProtocolController } from '../../src/modules/harness/protocol/harness-protocol';
import type { HarnessAdapterDescriptor } from '../../src/modules/harness/protocol/harness-protocol';
import {
  HarnessCapabilityError,
  HarnessRunNotFoundError,
} from '../../src/modules/harness/protocol/harness-protocol.errors';
import type {
  HarnessSessionExport,
  HarnessSessionRecord,
} from '../../src/modules/harness/protocol/harness-records';
import { createTestHarness, specFrom } from '../fakes/harness-fixtures';

/** A run.started event as a crashed process would have left it. */
function started(sessionId: string, runId: string, prompt: string): HarnessEvent {
  return {
    event_id: `${runId}-1`,
    session_id: sessionId,
    run_id: runId,
    sequence: 1,
    timestamp: new Date().toISOString(),
    type: 'run.started',
    data: { prompt, provider: 'openai', model: 'gpt-x', base_url: null, working_dir: tmpdir() },
  };
}

/** An adapter with no resume or cancel: the protocol's defaults must refuse them. */
class MinimalAdapter extends HarnessProtocolController {
  readonly descriptor: HarnessAdapterDescriptor = {
    id: 'minimal',
    name: 'Minimal test adapter',
    capabilities: {
      streaming: true,
      resume: false,
      cancel: false,
      approvals: false,
      tools: false,
      usage: false,
    },
  };
  async createSession(): Promise<HarnessSessionRecord> {
    return { id: 's', created_at: '', spec_name: 'x', working_dir: '/', metadata: {} };
  }
  async *send(): AsyncIterable<HarnessEvent> {
    // no events: a do-nothing run
  }
  async export(): Promise<HarnessSessionExport> {
    throw new Error('not used');
  }
}

/** What the A2A layer will do: inject both exports of HarnessModule into its own provider. */
@Injectable()
class HarnessConsumer {
  constructor(
    readonly controller: HarnessProtocolController,
    readonly ledger: HarnessLedgerService,
  ) {}
}

@Module({
  imports: [HarnessModule.forRoot({ storePath: null, providerEnv: {} })],
  providers: [HarnessConsumer],
})
class ConsumerModule {}

describe('harness ledger (own SQLite file, migrations, crash reconciliation)', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'harness-ledger-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates sessions, runs and events by migration in its own file, reopened intact', async () => {
    const file = join(dir, 'nested', 'harness.sqlite3');
    const first = await createTestHarness({ storePath: file });
    const session = await first.controller.createSession({
      spec: specFrom('name: ledger-e2e'),
      workingDir: dir,
      metadata: { contextId: 'ctx-1' },
    });
    const prompt = 'é'.repeat(300);
    await first.ledger.append(started(session.id, 'run-1', prompt));
    await first.close();

    const db = new Database(file, { readonly: true });
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all();
    expect(tables.map((t) => (t as { name: string }).name)).toEqual(
      expect.arrayContaining(['events', 'harness_migrations', 'runs', 'sessions']),
    );
    const pk = db
      .prepare("SELECT name, pk FROM pragma_table_info('events') WHERE pk > 0 ORDER BY pk")
      .all();
    expect(pk).toEqual([
      { name: 'run_id', pk: 1 },
      { name: 'sequence', pk: 2 },
    ]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();

    const second = await createTestHarness({ storePath: file });
    const [run] = await second.ledger.listRuns({ sessionId: session.id });
    expect(run).toMatchObject({
      id: 'run-1',
      status: 'running',
      provider: 'openai',
      ended_at: null,
    });
    expect(Array.from(run.prompt_preview)).toHaveLength(240);
    const exported = await second.controller.export(session.id);
    expect(exported.session).toMatchObject({
      spec_name: 'ledger-e2e',
      metadata: { contextId: 'ctx-1' },
    });
    await second.close();
  });

  it('markInterrupted ends a run left running with run.failed (interrupted), once', async () => {
    const h = await createTestHarness({ storePath: join(dir, 'h.sqlite3') });
    const session = await h.controller.createSession({
      spec: specFrom('name: crash'),
      workingDir: dir,
    });
    await h.ledger.append(started(session.id, 'run-crashed', 'do work'));

    const event = await h.ledger.markInterrupted('run-crashed', 'process exited during the run');
    expect(event).toMatchObject({
      run_id: 'run-crashed',
      session_id: session.id,
      sequence: 2,
      type: 'run.failed',
      data: { code: 'interrupted', message: 'process exited during the run' },
    });
    const detail = await h.ledger.showRun('run-crashed');
    expect(detail.run).toMatchObject({ status: 'failed', error: 'process exited during the run' });
    expect(detail.events.map((e) => e.type)).toEqual(['run.started', 'run.failed']);
    expect(await h.ledger.markInterrupted('run-crashed', 'again')).toBeNull();
    expect(await h.ledger.listRuns({ status: 'running' })).toEqual([]);
    await expect(h.ledger.markInterrupted('nope', 'x')).rejects.toBeInstanceOf(
      HarnessRunNotFoundError,
    );
    await h.close();
  });

  it('exports the protocol controller (Core adapter) and the ledger to importing modules', async () => {
    const module = await Test.createTestingModule({ imports: [ConsumerModule] }).compile();
    await module.init();
    const consumer = module.get(HarnessConsumer);
    expect(consumer.controller.descriptor).toMatchObject({
      id: 'core',
      capabilities: {
        streaming: true,
        resume: true,
        cancel: true,
        approvals: true,
        tools: true,
        usage: true,
      },
    });
    expect(await consumer.ledger.listRuns()).toEqual([]);
    await module.close();
  });

  it('an adapter without resume/cancel refuses them with HarnessCapabilityError', async () => {
    const h = await createTestHarness({ adapter: MinimalAdapter });
    expect(h.controller).toBeInstanceOf(MinimalAdapter);
    expect(() => h.controller.resume('run', 'approve')).toThrow(HarnessCapabilityError);
    await expect(h.controller.cancel('run')).rejects.toThrow(
      "harness adapter 'minimal' does not support cancel (capabilities.cancel is false)",
    );
    await h.close();
  });
});
