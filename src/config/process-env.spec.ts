import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { processEnv, useEnvFile } from './process-env';

/** Every non-spec TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

describe('processEnv (issue #13: process.env read in one place)', () => {
  it('is the only code in src/ that reads process.env (comments aside)', () => {
    const src = join(__dirname, '..');
    const readers = sources(src).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `${relative(src, file)}:${i + 1}`, line }))
        .filter(({ line }) => /\bprocess\.env\b/.test(line) && !/^\s*(\*|\/\/|\/\*)/.test(line)),
    );
    expect(readers.map((r) => r.where)).toEqual(['config/process-env.ts:19']);
  });

  it('returns the live process environment', () => {
    expect(processEnv().PATH).toBe(process.env.PATH);
  });
});

describe('env file (issue #19)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sq-envfile-'));
  const file = join(dir, 'test.env');
  afterAll(() => {
    delete process.env.SQ_ENVFILE_BOTH;
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds the file variables, and a variable set in the environment wins over the file', () => {
    writeFileSync(file, 'SQ_ENVFILE_ONLY=from-file\nSQ_ENVFILE_BOTH="from-file"\n# comment\n');
    process.env.SQ_ENVFILE_BOTH = 'from-env';
    useEnvFile(file);
    expect(processEnv().SQ_ENVFILE_ONLY).toBe('from-file');
    expect(processEnv().SQ_ENVFILE_BOTH).toBe('from-env');
    expect(process.env.SQ_ENVFILE_ONLY).toBeUndefined(); // never written back
  });

  it('a blank value counts as unset in each layer: it neither hides the file nor is kept', () => {
    writeFileSync(
      file,
      'SQ_ENVFILE_BLANKED=from-file\nSQ_ENVFILE_EMPTY=\nSQ_ENVFILE_SPACES="  "\n',
    );
    process.env.SQ_ENVFILE_BLANKED = ' ';
    useEnvFile(file);
    try {
      expect(processEnv().SQ_ENVFILE_BLANKED).toBe('from-file');
      expect('SQ_ENVFILE_EMPTY' in processEnv()).toBe(false);
      expect('SQ_ENVFILE_SPACES' in processEnv()).toBe(false);
    } finally {
      delete process.env.SQ_ENVFILE_BLANKED;
    }
  });

  it('a missing --env-file is an error naming the flag', () => {
    useEnvFile(join(dir, 'missing.env'));
    expect(() => processEnv()).toThrow(/--env-file .*missing\.env/);
  });
});
