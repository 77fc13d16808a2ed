/** A plain (non-array, non-null) object, as produced by YAML/JSON parsing. */
export type RawObject = Record<string, unknown>;

/**
 * Whether a parsed YAML/JSON value is a plain object (not an array, not null).
 * @param value - Any parsed value.
 */
export function isRawObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deep-merges two raw spec objects; `child` wins. Objects merge key by key, arrays and scalars
 * replace (never concatenate), and an explicit `null` in the child removes the inherited value
 * so the schema default applies again. Inputs are not mutated. Keys are copied as own data
 * properties, so a `__proto__` key cannot reach the prototype chain.
 * @param parent - The inherited raw object.
 * @param child - The inheriting raw object.
 * @returns A new merged object.
 */
export function deepMerge(parent: RawObject, child: RawObject): RawObject {
  const merged = new Map<string, unknown>(Object.entries(parent));
  for (const [key, value] of Object.entries(child)) {
    const inherited = merged.get(key);
    if (value === null) merged.delete(key);
    else if (isRawObject(value) && isRawObject(inherited))
      merged.set(key, deepMerge(inherited, value));
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}

/**
 * The value at a field path in a raw object, or `undefined` when any step is missing.
 * @param raw - A parsed spec object.
 * @param fieldPath - Keys and array indexes, as in a zod issue path.
 */
export function valueAt(raw: unknown, fieldPath: readonly PropertyKey[]): unknown {
  let node: unknown = raw;
  for (const key of fieldPath) {
    if (typeof node !== 'object' || node === null) return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}
