/**
 * Compares a published Agent Card with the checked-in `examples/a2a/agent-card.json`, field by
 * field, prints every difference, and checks that `iconUrl` answers with an image/* type.
 *
 *   npm run check:card -- [--url https://agent.example.com] [--warn-only]
 *
 * Exit: 0 when identical (or only warnings with --warn-only, or the host is unreachable: that is
 * reported, not failed); 1 on any difference. Fetches only the URL it is given.
 */
import { readFileSync } from 'node:fs';
import { packagePath } from '../src/common/runtime/package-root';

/** One field that differs: JSON path, published value, expected value. */
export interface CardDifference {
  path: string;
  published: unknown;
  expected: unknown;
}

/** Every leaf path where two JSON values differ (objects by key, arrays by index). */
export function diffJson(published: unknown, expected: unknown, path = '$'): CardDifference[] {
  if (
    typeof published !== typeof expected ||
    Array.isArray(published) !== Array.isArray(expected) ||
    published === null ||
    expected === null
  ) {
    return Object.is(published, expected) ? [] : [{ path, published, expected }];
  }
  if (typeof published !== 'object')
    return published === expected ? [] : [{ path, published, expected }];
  const a = published as Record<string, unknown>;
  const b = expected as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.flatMap((k) =>
    diffJson(a[k], b[k], Array.isArray(published) ? `${path}[${k}]` : `${path}.${k}`),
  );
}

/** Result of one check run. */
export interface CheckResult {
  reachable: boolean;
  differences: CardDifference[];
  iconOk: boolean | undefined;
  lines: string[];
}

/**
 * Fetches `${baseUrl}/.well-known/agent-card.json` (no A2A-Version: the dual card the export
 * writes) and compares it with `expected`; then HEAD/GET of its iconUrl.
 */
export async function checkPublishedCard(
  baseUrl: string,
  expected: unknown,
  timeoutMs = 10_000,
): Promise<CheckResult> {
  const lines: string[] = [];
  const url = `${baseUrl.replace(/\/+$/, '')}/.well-known/agent-card.json`;
  let published: unknown;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    published = await res.json();
  } catch (err) {
    lines.push(`unreachable: ${url} (${(err as Error).message}); nothing compared`);
    return { reachable: false, differences: [], iconOk: undefined, lines };
  }
  const differences = diffJson(published, expected);
  for (const d of differences)
    lines.push(
      `differs ${d.path}: published ${JSON.stringify(d.published)} expected ${JSON.stringify(d.expected)}`,
    );
  const iconUrl = (published as { iconUrl?: unknown }).iconUrl;
  let iconOk: boolean | undefined;
  if (typeof iconUrl === 'string') {
    try {
      const icon = await fetch(iconUrl, { signal: AbortSignal.timeout(timeoutMs) });
      iconOk = icon.ok && (icon.headers.get('content-type') ?? '').startsWith('image/');
      lines.push(
        iconOk
          ? `icon ok: ${iconUrl}`
          : `icon not an image: ${iconUrl} (${icon.status} ${icon.headers.get('content-type')})`,
      );
    } catch (err) {
      iconOk = false;
      lines.push(`icon unreachable: ${iconUrl} (${(err as Error).message})`);
    }
  }
  if (differences.length === 0) lines.push(`identical to the checked-in card: ${url}`);
  return { reachable: true, differences, iconOk, lines };
}

async function main(argv: string[]): Promise<number> {
  const i = argv.indexOf('--url');
  const expected = JSON.parse(
    readFileSync(packagePath('examples', 'a2a', 'agent-card.json'), 'utf8'),
  ) as { url?: string };
  const base = i >= 0 ? argv[i + 1] : (expected.url ?? 'http://127.0.0.1:8000');
  const result = await checkPublishedCard(base, expected);
  for (const line of result.lines) process.stdout.write(`${line}\n`);
  const failed = result.differences.length > 0 || result.iconOk === false;
  return failed && !argv.includes('--warn-only') ? 1 : 0;
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
