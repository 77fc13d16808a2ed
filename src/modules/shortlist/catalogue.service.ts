import { readFileSync } from 'node:fs';
import { Injectable, Logger } from '@nestjs/common';
import type { z } from 'zod';
import { catalogueSchema, type Catalogue, type CatalogueEntry } from './catalogue.schema';
import { packagePath } from '../../common/runtime/package-root';

/**
 * Where the shipped catalogue lives: `<package root>/data/hub-catalogue.json`. Resolved from
 * this file's directory, which is `src/modules/shortlist` under jest and
 * `dist/modules/shortlist` after `tsc -p tsconfig.build.json`; both are three levels deep.
 */
export const DEFAULT_CATALOGUE_PATH = packagePath('data', 'hub-catalogue.json');

/** Renders a zod issue path as `entries[3].popularityRank`; the root is `(root)`. */
function formatPath(issuePath: readonly PropertyKey[]): string {
  let out = '';
  for (const key of issuePath) {
    out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  }
  return out || '(root)';
}

function describeIssues(file: string, issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.slice(0, 20).map((i) => `  ${formatPath(i.path)}: ${i.message}`);
  const more = issues.length > 20 ? `\n  … and ${issues.length - 20} more` : '';
  return `Invalid Hub catalogue ${file}:\n${lines.join('\n')}${more}`;
}

/**
 * Reads and validates a catalogue file.
 * @param file - Path to a JSON file shaped like `data/hub-catalogue.json`.
 * @returns The validated catalogue (entries in file order).
 * @throws {Error} The file cannot be read, is not JSON, or breaks {@link catalogueSchema}; the
 *   message names the file and, for schema errors, each field path (`entries[3].openness`) with
 *   what was expected.
 * @see scripts/build-hub-catalogue.mjs, which produces the file.
 */
export function loadCatalogue(file: string): Catalogue {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`Cannot read Hub catalogue ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new Error(`Hub catalogue ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const result = catalogueSchema.safeParse(json);
  if (!result.success) throw new Error(describeIssues(file, result.error.issues));
  return result.data;
}

/**
 * The shipped Hub catalogue, loaded and validated once when the provider is created, so a broken
 * file stops the application at boot rather than on the first request.
 * @throws {Error} From the constructor, see {@link loadCatalogue}.
 */
@Injectable()
export class CatalogueService {
  private readonly logger = new Logger(CatalogueService.name);
  private readonly catalogue: Catalogue;

  constructor() {
    this.catalogue = loadCatalogue(DEFAULT_CATALOGUE_PATH);
    this.logger.log(
      `Hub catalogue ${this.catalogue.schemaVersion}: ${this.catalogue.entries.length} entries`,
    );
  }

  /** All catalogue entries in file order, including supplied and non-runnable ones. */
  entries(): readonly CatalogueEntry[] {
    return this.catalogue.entries;
  }

  /** The Hub schema version of the snapshot the catalogue was built from (e.g. `1.5`). */
  version(): string {
    return this.catalogue.schemaVersion;
  }
}
