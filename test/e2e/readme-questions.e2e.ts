import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { aJsonRpcRequest, aMessage, get, post, V1 } from '../fixtures/builders';
import { TestServer, startTestServer } from '../utils/test-app';

const ROOT = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Every question the README and examples/ show a user, as written there. */
function documentedQuestions(): string[] {
  const docs = [
    'README.md',
    'examples/a2a/README.md',
    'examples/interop/README.md',
    'examples/a2a/smoke-client.ts',
  ];
  const found = new Set<string>();
  for (const file of docs) {
    const text = read(file);
    for (const m of text.matchAll(/"text":"([^"]+)"/g)) found.add(m[1]);
    for (const m of text.matchAll(/(?:example:smoke --|a2a-client\.mjs) \S+ "([^"]+)"/g))
      found.add(m[1]);
    for (const m of text.matchAll(/text = '([^']+)'/g)) found.add(m[1]);
  }
  return [...found];
}

/**
 * Issue #11.15: every README/example question is one whose answer shows the skill working: a
 * shortlist of entries that each fit something asked, the first fitting all of it, and no
 * "does not fit" where the catalogue is merely silent.
 */
describe('README and example questions show the shortlist working (issue #11.15)', () => {
  let server: TestServer;
  let cardExamples: string[];
  beforeAll(async () => {
    server = await startTestServer();
    const card = await get(`${server.url}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' });
    cardExamples = card.body.skills.find(
      (s: { id: string }) => s.id === 'harness-shortlist',
    ).examples;
  });
  afterAll(() => server.close());

  it('finds the documented questions', () => {
    expect(documentedQuestions().length).toBeGreaterThanOrEqual(5);
  });

  it('every documented and card-example question gets entries that fit, the first fitting everything asked', async () => {
    for (const question of [...documentedQuestions(), ...cardExamples]) {
      const r = await post(
        server.url,
        aJsonRpcRequest('SendMessage', { message: aMessage(question) }),
        V1,
      );
      const task = r.body.result.task;
      expect([question, task.status.state]).toEqual([question, 'TASK_STATE_COMPLETED']);
      const [text, data] = task.artifacts[0].parts;
      const entries = data.data.entries as {
        matched: string[];
        unmatched: string[];
        unknown: string[];
      }[];
      expect([question, entries.length >= 3]).toEqual([question, true]);
      expect([question, entries.every((e) => e.matched.length > 0)]).toEqual([question, true]);
      expect([question, entries[0].unmatched, entries[0].unknown]).toEqual([question, [], []]);
      expect(text.text).not.toMatch(/No constraints recognised|No candidate meets/);
    }
  });

  it('the catalogue\'s silence reads "not recorded in the catalogue", not "does not fit"', async () => {
    const r = await post(
      server.url,
      aJsonRpcRequest('SendMessage', { message: aMessage('which harness fits a Rust project?') }),
      V1,
    );
    const text = r.body.result.task.artifacts[0].parts[0].text as string;
    expect(text).toContain('not recorded in the catalogue: Rust');
    expect(text).not.toContain('does not fit: Rust');
  });
});
