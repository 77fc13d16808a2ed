import { Test } from '@nestjs/testing';
import type { TestingModule } from '@nestjs/testing';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HarnessModule } from '../../src/modules/harness/harness.module';
import { HarnessLedgerService } from '../../src/modules/harness/ledger/harness-ledger.service';
import type { HarnessEvent } from '../../src/modules/harness/protocol/harness-events';
import { HarnessProtocolController } from '../../src/modules/harness/protocol/harness-protocol';
import { parseHarnessSpec } from '../../src/modules/harness/spec/harness-spec.loader';
import type { HarnessSpec } from '../../src/modules/harness/spec/harness-spec.schema';
import { FakeOpenAiServer } from './fake-openai-server';

/** A temporary git checkout with committed files; `remove()` deletes it. */
export interface TempCheckout {
  dir: string;
  remove(): void;
}

/** Runs git in `dir` with a fixed identity (no global config needed). */
export function git(dir: string, ...args: string[]): string {
  const identity = ['-c', 'user.email=harness@test', '-c', 'user.name=harness-test'];
  return execFileSync('git', [...identity, ...args], { cwd: dir, encoding: 'utf8' });
}

/** `git init` in a new temp directory, writes `files` (relative path → content), commits. */
export function tempCheckout(files: Record<string, string>): TempCheckout {
  const dir = mkdtempSync(join(tmpdir(), 'harness-e2e-'));
  git(dir, 'init', '-q');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A validated spec from YAML text (inheritance resolved relative to `baseDir`). */
export function specFrom(yaml: string, baseDir = process.cwd()): HarnessSpec {
  return parseHarnessSpec(yaml, 'test-spec.yaml', baseDir).spec;
}

/** A compiled HarnessModule (in-memory ledger, no provider keys, no retries) and its API. */
export interface TestHarness {
  module: TestingModule;
  controller: HarnessProtocolController;
  ledger: HarnessLedgerService;
  close(): Promise<void>;
}

/** Builds and initialises HarnessModule for a test; options override the defaults. */
export async function createTestHarness(
  options: Partial<Parameters<typeof HarnessModule.forRoot>[0]> = {},
): Promise<TestHarness> {
  const module = await Test.createTestingModule({
    imports: [
      HarnessModule.forRoot({ storePath: null, providerEnv: {}, modelMaxRetries: 0, ...options }),
    ],
  }).compile();
  await module.init();
  return {
    module,
    controller: module.get(HarnessProtocolController),
    ledger: module.get(HarnessLedgerService),
    close: () => module.close(),
  };
}

/** Every event of a stream, in order. */
export async function collect(events: AsyncIterable<HarnessEvent>): Promise<HarnessEvent[]> {
  const out: HarnessEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/** The event types, in order (deltas collapsed into one entry per run of deltas). */
export function typesOf(events: HarnessEvent[]): string[] {
  return events
    .map((e) => e.type)
    .filter((t, i, all) => !(t === 'message.delta' && all[i - 1] === 'message.delta'));
}

/** The first event of a type (typed), or a failing assertion. */
export function first<K extends HarnessEvent['type']>(
  events: HarnessEvent[],
  type: K,
): Extract<HarnessEvent, { type: K }> {
  const found = events.find((e) => e.type === type);
  if (!found) throw new Error(`no ${type} event in: ${events.map((e) => e.type).join(', ')}`);
  return found as Extract<HarnessEvent, { type: K }>;
}

/** Events of a type (typed). */
export function all<K extends HarnessEvent['type']>(
  events: HarnessEvent[],
  type: K,
): Extract<HarnessEvent, { type: K }>[] {
  return events.filter((e) => e.type === type) as Extract<HarnessEvent, { type: K }>[];
}

/** What {@link harnessSuite} gives each test: filled by the hooks it registers. */
export interface HarnessSuite {
  fake: FakeOpenAiServer;
  harness: TestHarness;
  checkout: TempCheckout;
}

/**
 * Registers the hooks every harness e2e suite uses: one fake OpenAI-compatible server and one
 * harness per file, a fresh git checkout holding `files` per test (removed after it).
 */
export function harnessSuite(files: Record<string, string>): HarnessSuite {
  const suite = {} as HarnessSuite;
  beforeAll(async () => {
    suite.fake = await FakeOpenAiServer.start();
    suite.harness = await createTestHarness();
  });
  afterAll(async () => {
    await suite.harness.close();
    await suite.fake.close();
  });
  beforeEach(() => {
    suite.checkout = tempCheckout(files);
  });
  afterEach(() => suite.checkout.remove());
  return suite;
}
