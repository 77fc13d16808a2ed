import { Test } from '@nestjs/testing';
import type { CatalogueEntry } from './catalogue.schema';
import { CatalogueService } from './catalogue.service';
import { parseConstraints } from './request-constraints';
import { NOT_A_MEASUREMENT, SUPPLIED_DISCLOSURE, ShortlistService } from './shortlist.service';
import { toView } from './shortlist-fit';

/** Builder for a fresh, runnable third-party catalogue entry. */
const anEntry = (overrides: Partial<CatalogueEntry> = {}): CatalogueEntry => ({
  id: 'x',
  name: 'X',
  description: '',
  category: 'Coding agents',
  kind: 'connection',
  integrationLevel: 'managed',
  readiness: 'setup-required',
  openness: 'open',
  license: 'MIT',
  homepage: '',
  repository: '',
  docsUrl: '',
  installCommand: '',
  setupSteps: [],
  policies: [],
  capabilities: [],
  tools: [],
  aliases: [],
  popularityRank: 500,
  superqodeSupplied: false,
  runnable: true,
  structuredPolicy: false,
  runtime: 'x',
  interface: '',
  ...overrides,
});

const aSuppliedEntry = (overrides: Partial<CatalogueEntry> = {}): CatalogueEntry =>
  anEntry({
    category: 'SuperQode harnesses',
    kind: 'harness',
    integrationLevel: 'native',
    readiness: 'ready',
    superqodeSupplied: true,
    structuredPolicy: true,
    policies: ['Sandbox: local', 'Shell: allowed'],
    ...overrides,
  });

async function serviceOver(entries: CatalogueEntry[]): Promise<ShortlistService> {
  const catalogue = { entries: () => entries, version: () => 'test' };
  const moduleRef = await Test.createTestingModule({
    providers: [ShortlistService, { provide: CatalogueService, useValue: catalogue }],
  }).compile();
  return moduleRef.get(ShortlistService);
}

const ids = (views: { id: string }[]): string[] => views.map((v) => v.id);

describe(`${ShortlistService.name} on the shipped catalogue`, () => {
  let service: ShortlistService;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      providers: [CatalogueService, ShortlistService],
    }).compile();
    service = moduleRef.get(ShortlistService);
  });

  // Open third-party runnable entries by popularityRank: Codex 10, Gemini CLI (ACP) 55,
  // OpenCode (ACP) 60, Grok 80, Kimi Code 90. No entry carries a Local:/Ollama: label, so
  // "local models" cannot change the order.
  it('shortlists open-source entries for "open source harness with local models via ollama"', () => {
    const a = service.answer('open source harness with local models via ollama');
    expect(ids(a.entries)).toEqual(['codex', 'acp:gemini', 'acp:opencode', 'grok', 'kimi-code']);
    expect(a.entries.every((v) => v.score === 1 && v.matched[0] === 'open source')).toBe(true);
    expect(a.notes).toContain(
      'local models: no candidate entry with labelled policies declares it.',
    );
    expect(a.notes).toContainEqual(
      expect.stringMatching(/^local models: .*\("Local:" or "Ollama:"\)\. 67 of 71 /),
    );
    expect(a.catalogueVersion).toBe('1.5');
  });

  it('holds SuperQode-supplied entries back, listed apart with a disclosure', () => {
    const a = service.answer('open source harness');
    expect(a.entries.some((v) => v.id === 'core')).toBe(false);
    expect(a.supplied).toHaveLength(19);
    expect(ids(a.supplied).slice(0, 3)).toEqual(['core', 'rlm', 'pipy']);
    expect(a.text).toContain(`${SUPPLIED_DISCLOSURE}: Core, RLM, PiPy`);
  });

  // Sandbox-declaring runnable entries: 14 supplied + 4 optional integrations. By rank: Core 220,
  // Workbench 230, DeepAgents 255, then the 500s by name: benchmark-coding, DeepSeek Harness.
  it('ranks supplied entries with the others when the request asks for them', () => {
    const a = service.answer("SuperQode's built-in harnesses with a sandbox");
    expect(a.constraints.includeSupplied).toBe(true);
    expect(ids(a.entries)).toEqual([
      'core',
      'workbench',
      'deepagents',
      'benchmark-coding',
      'deepseek-harness',
    ]);
    expect(a.supplied).toEqual([]);
  });

  it('ranks ACP + open source: entries meeting both, by how well known they are', () => {
    const a = service.answer('an open source ACP agent');
    expect(ids(a.entries)).toEqual([
      'acp:gemini',
      'acp:opencode',
      'grok',
      'kimi-code',
      'qwen-code',
    ]);
    expect(a.entries.every((v) => v.score === 2)).toBe(true);
  });

  it('matches licence families by the leading licence word', () => {
    const a = service.answer('MIT licensed');
    const expected = [
      'acp:opencode',
      'kimi-code',
      'acp:openhands',
      'prime-agent',
      'deepagents-code',
    ];
    expect(ids(a.entries)).toEqual(expected);
  });

  it('gives only labelled-policy entries a sandbox fit, and says so for the rest', () => {
    const a = service.answer('I need sandboxing');
    expect(ids(a.entries)).toEqual(['deepagents', 'deepseek-harness', 'tau', 'uhp']);
    expect(a.entries[0].policyFit).toEqual({
      declares: ['sandboxing (Sandbox: local)'],
      doesNotDeclare: [],
    });
    expect(a.notes).toContainEqual(
      expect.stringMatching(
        /^sandboxing: .*"Sandbox:".* 67 of 71 candidate entries carry no labelled policies, so the catalogue cannot answer/,
      ),
    );
  });

  it('reports "does not declare" from labelled policies (network blocked, approvals none)', () => {
    const a = service.answer('network access and approvals');
    const tau = a.entries.find((v) => v.id === 'tau');
    expect(tau?.policyFit).toEqual({
      declares: ['approvals (Approvals: deny)'],
      doesNotDeclare: ['network access (Network: blocked)'],
    });
    expect(ids(a.entries)).toEqual(['deepagents', 'deepseek-harness', 'tau', 'uhp']);
  });

  it('notes an asked editor no entry states, and ranks on what it can (ACP)', () => {
    const a = service.answer('Recommend an ACP agent that works in Zed');
    expect(ids(a.entries)).toEqual(['cursor', 'acp:gemini', 'acp:opencode', 'amp', 'grok']);
    expect(a.entries[0]).toMatchObject({
      matched: ['ACP (Agent Client Protocol)'],
      unmatched: [],
      unknown: ['Zed'],
    });
    // The catalogue is silent about Zed, not negative (issue #11.15).
    expect(a.text).toContain(
      'fits: ACP (Agent Client Protocol); not recorded in the catalogue: Zed',
    );
    expect(a.text).not.toContain('does not fit: Zed');
    expect(a.notes).toContain('Zed: no candidate entry in the catalogue states it.');
  });

  it('finds languages in declared text only ("via Python RPC")', () => {
    expect(ids(service.answer('python').entries)).toEqual(['prime-agent']);
  });

  it('falls back to the best-known entries with a note when nothing fits', () => {
    const a = service.answer('a Rust harness');
    expect(ids(a.entries)).toEqual(['codex', 'claude', 'cursor', 'copilot', 'antigravity']);
    expect(a.entries[0]).toMatchObject({ unmatched: [], unknown: ['Rust'] });
    expect(a.text).toContain('1. Codex [codex] - not recorded in the catalogue: Rust');
    expect(a.text).not.toMatch(/does not fit: Rust/);
    expect(a.notes).toContain('Rust: no candidate entry in the catalogue states it.');
    expect(a.notes).toContain(
      'No candidate meets what was asked; the best-known entries are shown instead.',
    );
  });

  it('orders by how well known entries are when nothing is recognised', () => {
    const a = service.answer('hello');
    expect(ids(a.entries)).toEqual(['codex', 'claude', 'cursor', 'copilot', 'antigravity']);
    expect(a.text).toContain('Shortlist (no constraints recognised)');
  });

  it('renders a numbered list with openness, licence, readiness, links and install command', () => {
    const a = service.answer('open source');
    expect(a.text).toContain('1. Codex [codex] - fits: open source');
    expect(a.text).toContain('   Open source (Apache-2.0) · Needs setup');
    expect(a.text).toContain('   https://openai.com/codex/ · https://github.com/openai/codex');
    expect(a.text).toContain('   Install: uv tool install "superqode[codex-sdk]"');
    expect(a.text.endsWith(NOT_A_MEASUREMENT)).toBe(true);
  });

  it('keeps "does not fit" for recorded facts, "not recorded" for silence (issue #11.15)', () => {
    const c = parseConstraints('open source MIT harness for Rust with shell access');
    const closed = anEntry({ openness: 'closed', license: '' });
    expect(toView(closed, c)).toMatchObject({
      unmatched: ['open source', 'MIT licence'],
      unknown: ['Rust'],
    });
    const silent = anEntry({ openness: '', license: '' });
    expect(toView(silent, c)).toMatchObject({
      unmatched: [],
      unknown: ['open source', 'MIT licence', 'Rust'],
    });
    const apache = anEntry({ openness: 'open', license: 'Apache-2.0', language: 'Go' });
    expect(toView(apache, c)).toMatchObject({
      matched: ['open source'],
      unmatched: ['MIT licence', 'Rust'],
    });
    const blocked = anEntry({ structuredPolicy: true, policies: ['Shell: blocked'] });
    expect(toView(blocked, c).unmatched).toContain('shell access');
    const unlabelled = anEntry({ structuredPolicy: true, policies: ['Sandbox: local'] });
    expect(toView(unlabelled, c).unknown).toContain('shell access');
  });

  it('never ranks non-runnable ecosystem-watch entries', () => {
    const a = service.answer('terminal harness open source MIT');
    expect(a.entries.some((v) => v.id.startsWith('ecosystem:'))).toBe(false);
    expect(a.notes[0]).toMatch(/^15 ecosystem-watch entries/);
  });

  it('answers in Latin-1 characters only, so V8 keeps its JSON at one byte per character', () => {
    // issue #14: one character above U+00FF doubles every copy of the answer (row, reply).
    const questions = ['which harness for rust', 'open source ACP agent, MIT', 'hello', 'sandbox'];
    for (const q of questions) {
      const answer = service.answer(q);
      expect(JSON.stringify(answer)).not.toMatch(/[\u0100-\uffff]/);
    }
  });
});

describe(`${ShortlistService.name} on fixture catalogues`, () => {
  it('ranks supplied entries, with a note, when no third-party entry exists', async () => {
    const service = await serviceOver([
      aSuppliedEntry({ id: 'core', name: 'Core', popularityRank: 220 }),
      aSuppliedEntry({ id: 'rlm', name: 'RLM', popularityRank: 250 }),
      anEntry({ id: 'ecosystem:aider', runnable: false, readiness: 'not-supported' }),
    ]);
    const a = service.answer('open source');
    expect(ids(a.entries)).toEqual(['core', 'rlm']);
    expect(a.supplied).toEqual([]);
    expect(a.notes).toContain(
      "The catalogue has no third-party harness, so SuperQode's own entries are ranked.",
    );
  });

  it('never uses readiness to rank', async () => {
    const service = await serviceOver([
      anEntry({ id: 'ready', name: 'A', readiness: 'ready', popularityRank: 90 }),
      anEntry({ id: 'setup', name: 'B', readiness: 'setup-required', popularityRank: 10 }),
    ]);
    expect(ids(service.answer('open source').entries)).toEqual(['setup', 'ready']);
  });

  it('breaks equal scores by popularityRank (lower first), then by name', async () => {
    const service = await serviceOver([
      anEntry({ id: 'z', name: 'zeta', popularityRank: 500 }),
      anEntry({ id: 'a', name: 'Alpha', popularityRank: 500 }),
      anEntry({ id: 'm', name: 'Mid', popularityRank: 100 }),
      anEntry({ id: 'c', name: 'Closed', openness: 'closed', popularityRank: 1 }),
    ]);
    expect(ids(service.answer('oss').entries)).toEqual(['m', 'a', 'z']);
  });

  it('uses constraints given by the caller instead of reading the text', async () => {
    const service = await serviceOver([
      anEntry({ id: 'acp', capabilities: ['Agent Client Protocol'], popularityRank: 600 }),
      anEntry({ id: 'plain', popularityRank: 1 }),
    ]);
    const a = service.answer('open source', parseConstraints('ACP'));
    expect(ids(a.entries)).toEqual(['acp']);
    expect(a.constraints.understood).toEqual(['ACP (Agent Client Protocol)']);
  });
});
