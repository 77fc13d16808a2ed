import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { processEnv } from './process-env';

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
    expect(readers.map((r) => r.where)).toEqual(['config/process-env.ts:11']);
  });

  it('returns the live process environment', () => {
    expect(processEnv().PATH).toBe(process.env.PATH);
  });
});
