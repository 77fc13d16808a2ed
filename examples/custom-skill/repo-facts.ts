import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Facts about a working directory, read without git and without opening any file but package.json. */
export interface RepoFacts {
  /** `name`, `version`, `description` of ./package.json, when it exists and parses. */
  package?: { name?: string; version?: string; description?: string };
  /** Regular files seen (dot-entries, node_modules, dist and symlinks skipped). */
  files: number;
  /** File counts by extension (`.ts`, `.md`, `(none)`), largest first, at most 10. */
  extensions: { extension: string; files: number }[];
  /** The walk stopped at {@link MAX_ENTRIES} entries. */
  truncated: boolean;
}

/** Directory entries the walk reads at most (bounds the work of one request). */
export const MAX_ENTRIES = 20_000;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'dist-tools', 'coverage']);
const MAX_PACKAGE_JSON_BYTES = 1_000_000;

/**
 * Walks `dir` (depth-first, no symlinks followed, never outside `dir`) and counts files.
 * @param dir - Absolute path of the working directory.
 */
export function readRepoFacts(dir: string): RepoFacts {
  const counts = new Map<string, number>();
  let files = 0;
  let seen = 0;
  const pending = [dir];
  while (pending.length > 0 && seen < MAX_ENTRIES) {
    const current = pending.pop() as string;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue; // unreadable directory: left out
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) break;
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name))
        pending.push(join(current, entry.name));
      if (!entry.isFile()) continue;
      files++;
      const dot = entry.name.lastIndexOf('.');
      const extension = dot > 0 ? entry.name.slice(dot).toLowerCase() : '(none)';
      counts.set(extension, (counts.get(extension) ?? 0) + 1);
    }
  }
  const extensions = [...counts.entries()]
    .map(([extension, n]) => ({ extension, files: n }))
    .sort((a, b) => b.files - a.files || a.extension.localeCompare(b.extension))
    .slice(0, 10);
  return { package: readPackage(dir), files, extensions, truncated: seen > MAX_ENTRIES };
}

function readPackage(dir: string): RepoFacts['package'] {
  const file = join(dir, 'package.json');
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.size > MAX_PACKAGE_JSON_BYTES) return undefined;
    const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const pick = (k: string) => (typeof json[k] === 'string' ? (json[k] as string) : undefined);
    return { name: pick('name'), version: pick('version'), description: pick('description') };
  } catch {
    return undefined;
  }
}

/** The facts as a few lines of text. */
export function repoFactsText(facts: RepoFacts): string {
  const lines: string[] = [];
  const p = facts.package;
  if (p?.name)
    lines.push(
      `Package: ${p.name}${p.version ? ` ${p.version}` : ''}${p.description ? ` (${p.description})` : ''}`,
    );
  lines.push(`Files: ${facts.files}${facts.truncated ? ' or more (walk truncated)' : ''}`);
  if (facts.extensions.length > 0) {
    lines.push(
      `By extension: ${facts.extensions.map((e) => `${e.extension} ${e.files}`).join(', ')}`,
    );
  }
  return lines.join('\n');
}
