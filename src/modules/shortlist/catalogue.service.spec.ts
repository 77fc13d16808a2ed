import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Test } from '@nestjs/testing';
import { CatalogueService, DEFAULT_CATALOGUE_PATH, loadCatalogue } from './catalogue.service';

const shipped = (): Record<string, unknown> & { entries: Record<string, unknown>[] } =>
  JSON.parse(readFileSync(DEFAULT_CATALOGUE_PATH, 'utf8'));

describe(CatalogueService.name, () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'hub-catalogue-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const writeTemp = (name: string, content: string): string => {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    return file;
  };

  it('resolves the shipped file at <package root>/data/hub-catalogue.json', () => {
    expect(DEFAULT_CATALOGUE_PATH).toBe(path.resolve(process.cwd(), 'data/hub-catalogue.json'));
  });

  it('loads and validates the shipped catalogue once, as a Nest provider', async () => {
    const moduleRef = await Test.createTestingModule({ providers: [CatalogueService] }).compile();
    const service = moduleRef.get(CatalogueService);
    expect(service.version()).toBe('1.5');
    expect(service.entries()).toHaveLength(105);
    expect(service.entries()).toBe(service.entries());
  });

  it('ships derived flags consistent with the stated rules', () => {
    for (const e of loadCatalogue(DEFAULT_CATALOGUE_PATH).entries) {
      expect(e.superqodeSupplied).toBe(['native', 'preset'].includes(e.integrationLevel));
      expect(e.runnable).toBe(e.readiness !== 'not-supported');
      expect(e.structuredPolicy).toBe(e.policies.some((p) => /^(sandbox|shell):/i.test(p)));
    }
  });

  it('ships the applied schema-1.7 record changes', () => {
    const byId = new Map(loadCatalogue(DEFAULT_CATALOGUE_PATH).entries.map((e) => [e.id, e]));
    expect(byId.get('acp:opencode')?.repository).toBe('https://github.com/anomalyco/opencode');
    expect(byId.get('ecosystem:crush')).toMatchObject({
      openness: 'source-available',
      license: 'FSL-1.1-MIT',
    });
    expect(byId.get('ecosystem:warp')?.openness).toBe('closed');
    expect(byId.get('ecosystem:zcode')).toMatchObject({ openness: 'open', license: 'Apache-2.0' });
    expect(byId.get('ecosystem:exoharness')).toMatchObject({ name: 'Exo', runnable: false });
    expect(byId.has('gemini-cli')).toBe(false);
  });

  it('rejects a wrong type with the file, the field path and what was expected', () => {
    const data = shipped();
    data.entries[2].popularityRank = 'high';
    const file = writeTemp('wrong-type.json', JSON.stringify(data));
    expect(() => loadCatalogue(file)).toThrow(file);
    expect(() => loadCatalogue(file)).toThrow(/entries\[2\]\.popularityRank: .*expected number/);
  });

  it('rejects an unknown key (strict schema) with its path', () => {
    const data = shipped();
    data.entries[0].stars = 5;
    const file = writeTemp('unknown-key.json', JSON.stringify(data));
    expect(() => loadCatalogue(file)).toThrow(/entries\[0\]: .*"stars"/);
  });

  it('rejects an openness outside the Hub values', () => {
    const data = shipped();
    data.entries[5].openness = 'mostly open';
    const file = writeTemp('bad-enum.json', JSON.stringify(data));
    expect(() => loadCatalogue(file)).toThrow(/entries\[5\]\.openness: .*"open"/);
  });

  it('rejects duplicate ids', () => {
    const data = shipped();
    data.entries[1].id = data.entries[0].id;
    const file = writeTemp('duplicate.json', JSON.stringify(data));
    expect(() => loadCatalogue(file)).toThrow(/entries\[1\]\.id: expected a unique id/);
  });

  it('rejects a missing top-level field', () => {
    const { schemaVersion: _omit, ...data } = shipped();
    const file = writeTemp('no-version.json', JSON.stringify(data));
    expect(() => loadCatalogue(file)).toThrow(/schemaVersion: .*expected string/);
  });

  it('names the file when it is not JSON', () => {
    const file = writeTemp('not-json.json', '{ "entries": [');
    expect(() => loadCatalogue(file)).toThrow(`Hub catalogue ${file} is not valid JSON`);
  });

  it('names the file when it cannot be read', () => {
    const file = path.join(dir, 'absent.json');
    expect(() => loadCatalogue(file)).toThrow(`Cannot read Hub catalogue ${file}`);
  });
});
