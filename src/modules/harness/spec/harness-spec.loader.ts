import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { HarnessSpecError, HarnessSpecErrorCode } from './harness-spec.errors';
import { deepMerge, isRawObject, type RawObject, valueAt } from './harness-spec.merge';
import { type HarnessSpec, harnessSpecSchema } from './harness-spec.schema';
import { builtinTemplate, isBuiltinTemplateName } from './harness-spec.templates';
import { specWarnings } from './harness-spec.warnings';

export { HarnessSpecError, HarnessSpecErrorCode } from './harness-spec.errors';
export { builtinTemplate, type BuiltinTemplateName } from './harness-spec.templates';

/** Longest `inherits` chain accepted (hops from the loaded file to its farthest ancestor). */
export const MAX_INHERITANCE_DEPTH = 16;

/**
 * A loaded spec.
 * - `spec`: validated, every default applied, inheritance resolved.
 * - `source`: the file name (or label) it was loaded from, as given by the caller.
 * - `warnings`: human-readable lines about weak spots (e.g. `sandbox: local` = no isolation),
 *   to be logged or shown; never fatal.
 */
export interface LoadedHarnessSpec {
  spec: HarnessSpec;
  source: string;
  warnings: string[];
}

/** One file (or template) of an inheritance chain, without its `inherits`/`extends` key. */
interface Layer {
  source: string;
  raw: RawObject;
}

/**
 * Reads, resolves and validates a HarnessSpec file (YAML or JSON, optionally wrapped in a
 * top-level `harness:` key). `inherits`/`extends` paths resolve relative to the file.
 * @param file - Path to the spec, absolute or relative to the process's working directory.
 * @returns The spec, `source: file`, and warnings.
 * @throws {HarnessSpecError} Unreadable file, bad YAML, bad inheritance or schema violation;
 *   the message names the file, the field path and what was expected.
 * @see ./harness-spec.schema.ts for fields and defaults.
 */
export function loadHarnessSpec(file: string): LoadedHarnessSpec {
  return parseHarnessSpec(readSpecFile(file, file), file, path.dirname(path.resolve(file)));
}

/**
 * A built-in template by name (`coding`, `read-only`, `no-tool`), else a spec file: what every
 * CLI flag or argument that takes a spec accepts (`serve a2a --spec`, `harness run --spec`,
 * `harness validate`). A template name wins over a file of that name (write `./coding`).
 * @returns The spec, `source` (`builtin:<name>` or the file), and warnings.
 * @throws {HarnessSpecError} See {@link loadHarnessSpec}.
 */
export function loadHarnessSpecOrTemplate(ref: string): LoadedHarnessSpec {
  if (!isBuiltinTemplateName(ref)) return loadHarnessSpec(ref);
  return parseHarnessSpec(
    JSON.stringify({ inherits: ref, name: `builtin-${ref}` }),
    `builtin:${ref}`,
    process.cwd(),
  );
}

/**
 * Resolves and validates HarnessSpec text. Inheritance: raw objects are deep-merged before
 * validation (child wins, arrays replace, `null` resets to the default); a built-in template
 * name (`coding`, `read-only`, `no-tool`) wins over a file of that name (write `./coding`).
 * @param text - YAML or JSON.
 * @param source - File name or label used in messages; with `baseDir` it also identifies the
 *   file for cycle detection.
 * @param baseDir - Directory that relative `inherits`/`extends` paths resolve against.
 * @throws {HarnessSpecError} See {@link loadHarnessSpec}; cycles and chains deeper than
 *   {@link MAX_INHERITANCE_DEPTH} name the whole chain.
 */
export function parseHarnessSpec(text: string, source: string, baseDir: string): LoadedHarnessSpec {
  const root = parseRaw(text, source);
  const identity = path.resolve(baseDir, path.basename(source));
  const layers = resolveLayers(root, source, baseDir, [identity], [source]);
  const merged = layers.reduceRight<RawObject>((acc, layer) => deepMerge(acc, layer.raw), {});
  const ref = inheritRef(root, source);
  const input = ref === undefined ? merged : { ...merged, inherits: ref };
  const result = harnessSpecSchema.safeParse(input);
  if (!result.success) {
    throw new HarnessSpecError(HarnessSpecErrorCode.Invalid, describeIssues(result.error, layers));
  }
  return { spec: result.data, source, warnings: specWarnings(result.data, merged, source) };
}

function readSpecFile(file: string, display: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new HarnessSpecError(HarnessSpecErrorCode.Unreadable, [
      `${display}: cannot read file (${reason})`,
    ]);
  }
}

/**
 * `yaml`, loaded when a spec is first parsed (issue #13: 72 modules a server with the harness off
 * and every command that reads no spec never needs).
 */
function yaml(): typeof import('yaml') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy by design
  return require('yaml') as typeof import('yaml');
}

function parseRaw(text: string, source: string): RawObject {
  const doc = yaml().parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    const lines = doc.errors.map(
      (e) => `${source}: invalid YAML/JSON: ${e.message.split('\n')[0]}`,
    );
    throw new HarnessSpecError(HarnessSpecErrorCode.Syntax, lines);
  }
  let value: unknown = doc.toJS({ maxAliasCount: 100 });
  if (isRawObject(value) && Object.keys(value).length === 1 && 'harness' in value) {
    value = value.harness;
  }
  if (!isRawObject(value)) {
    const msg = `${source}: (root): expected a mapping of spec fields (optionally under "harness:")`;
    throw new HarnessSpecError(HarnessSpecErrorCode.Syntax, [msg]);
  }
  return value;
}

function inheritRef(raw: RawObject, source: string): string | undefined {
  const fail = (what: string): never => {
    throw new HarnessSpecError(HarnessSpecErrorCode.Inheritance, [`${source}: ${what}`]);
  };
  if (raw.inherits != null && raw.extends != null)
    fail('inherits: use either "inherits" or "extends", not both');
  const key = raw.inherits != null ? 'inherits' : 'extends';
  const ref = raw[key];
  if (ref == null) return undefined;
  if (typeof ref !== 'string' || ref.trim() === '') {
    fail(`${key}: expected a built-in template name or a relative path`);
  }
  return ref as string;
}

function withoutInheritKeys(raw: RawObject): RawObject {
  return Object.fromEntries(
    Object.entries(raw).filter(([k]) => k !== 'inherits' && k !== 'extends'),
  );
}

/** Layers from the given file (first) to its farthest ancestor (last). */
function resolveLayers(
  raw: RawObject,
  source: string,
  baseDir: string,
  chain: string[],
  shown: string[],
): Layer[] {
  const own: Layer = { source, raw: withoutInheritKeys(raw) };
  const ref = inheritRef(raw, source);
  if (ref === undefined) return [own];
  const fail = (what: string): never => {
    throw new HarnessSpecError(HarnessSpecErrorCode.Inheritance, [`${source}: inherits: ${what}`]);
  };
  if (chain.length > MAX_INHERITANCE_DEPTH) {
    fail(`chain deeper than ${MAX_INHERITANCE_DEPTH}: ${[...shown, ref].join(' -> ')}`);
  }
  if (isBuiltinTemplateName(ref))
    return [own, { source: `builtin:${ref}`, raw: builtinTemplate(ref) }];
  if (path.isAbsolute(ref))
    fail(`expected a built-in template name or a relative path, got "${ref}"`);
  const file = path.resolve(baseDir, ref);
  const display = path.join(path.dirname(source), ref);
  if (chain.includes(file)) fail(`inheritance cycle: ${[...shown, display].join(' -> ')}`);
  const parent = parseRaw(readSpecFile(file, display), display);
  return [
    own,
    ...resolveLayers(parent, display, path.dirname(file), [...chain, file], [...shown, display]),
  ];
}

function describeIssues(error: z.ZodError, layers: Layer[]): string[] {
  return error.issues.flatMap((issue) => {
    const paths =
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => [...issue.path, key])
        : [issue.path];
    return paths.map((fieldPath) => {
      const text =
        issue.code === 'unrecognized_keys' ? 'unrecognized key' : issueText(issue.message);
      return `${sourceOf(fieldPath, layers)}: ${formatPath(fieldPath)}: ${text}`;
    });
  });
}

function issueText(message: string): string {
  const text = message.replace(/^Invalid (input|option): /, '');
  if (/received undefined$/.test(text))
    return `required (${text.replace(/, received undefined$/, '')})`;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The most-derived layer that sets the field: that is where the bad value came from. */
function sourceOf(fieldPath: readonly PropertyKey[], layers: Layer[]): string {
  return (
    layers.find((layer) => valueAt(layer.raw, fieldPath) !== undefined)?.source ?? layers[0].source
  );
}

function formatPath(fieldPath: readonly PropertyKey[]): string {
  if (fieldPath.length === 0) return '(root)';
  return fieldPath
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}
