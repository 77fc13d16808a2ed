/** Names of the built-in templates a spec can `inherits`/`extends` by bare name. */
export const BUILTIN_TEMPLATE_NAMES = ['coding', 'read-only', 'no-tool'] as const;

/** A built-in template name: `coding`, `read-only` or `no-tool`. */
export type BuiltinTemplateName = (typeof BUILTIN_TEMPLATE_NAMES)[number];

const TEMPLATES: Record<BuiltinTemplateName, Record<string, unknown>> = {
  coding: {
    version: 1,
    name: 'coding',
    description:
      'Reads, writes and runs shell commands in the working directory (bubblewrap sandbox when available).',
    flavor: 'coding',
    execution_policy: {
      sandbox: 'auto',
      allow_read: true,
      allow_write: true,
      allow_shell: true,
      allow_network: false,
    },
  },
  'read-only': {
    version: 1,
    name: 'read-only',
    description: 'Reads and searches the working directory; never writes or runs commands.',
    flavor: 'coding',
    execution_policy: {
      sandbox: 'local',
      allow_read: true,
      allow_write: false,
      allow_shell: false,
      allow_network: false,
    },
  },
  'no-tool': {
    version: 1,
    name: 'no-tool',
    description: 'Answers from the model alone; no tools are offered.',
    flavor: 'no_tool',
    execution_policy: {
      sandbox: 'local',
      allow_read: false,
      allow_write: false,
      allow_shell: false,
      allow_network: false,
    },
  },
};

/**
 * Whether `name` is a built-in template name (as opposed to a relative path).
 * @param name - The value of an `inherits`/`extends` key.
 */
export function isBuiltinTemplateName(name: string): name is BuiltinTemplateName {
  return (BUILTIN_TEMPLATE_NAMES as readonly string[]).includes(name);
}

/**
 * A fresh copy of a built-in template as a raw (unvalidated, undefaulted) spec object, ready to
 * be deep-merged under a child spec.
 * - `coding`: read, write and shell allowed; sandbox `auto` (bwrap when it works, else local).
 * - `read-only`: read and search tools only.
 * - `no-tool`: `flavor: no_tool`, no tools at all.
 * @param name - One of {@link BUILTIN_TEMPLATE_NAMES}.
 * @returns A new object each call; callers may mutate it.
 * @throws {Error} `name` is not a built-in template (only reachable from untyped callers).
 */
export function builtinTemplate(name: BuiltinTemplateName): Record<string, unknown> {
  if (!isBuiltinTemplateName(name)) {
    throw new Error(`unknown built-in harness template "${String(name)}"`);
  }
  return structuredClone(TEMPLATES[name]);
}
