import { z } from 'zod';

/** The only HarnessSpec file format version this server understands. */
export const HARNESS_SPEC_VERSION = 1;

/**
 * Names of every tool a harness can offer a model; agent `tools` lists and permission rules
 * refer to these.
 * @see ../tools/harness-tool.ts, which implements them.
 */
export const HARNESS_TOOL_NAMES = [
  'read_file',
  'list_directory',
  'glob',
  'grep',
  'write_file',
  'edit_file',
  'bash',
] as const;

/**
 * The `execution_policy` flag that enables each tool: reading tools need `allow_read`,
 * `write_file`/`edit_file` need `allow_write`, `bash` needs `allow_shell`.
 */
export const TOOL_PERMISSION_FLAG = {
  read_file: 'allow_read',
  list_directory: 'allow_read',
  glob: 'allow_read',
  grep: 'allow_read',
  write_file: 'allow_write',
  edit_file: 'allow_write',
  bash: 'allow_shell',
} as const satisfies Record<(typeof HARNESS_TOOL_NAMES)[number], string>;

/** Instruction files looked up in the working directory when a spec names none. */
export const DEFAULT_INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', 'SUPERQODE.md'];

const positiveInt = () => z.number().int().positive();

/**
 * One permission rule; the run loop applies the first rule whose `tool` and `pattern` match.
 * - `tool`: picomatch glob over tool names (`bash`, `*_file`, `*`).
 * - `pattern`: glob over the tool's target: the working-directory-relative path for file
 *   tools, the command line (and each simple command in it) for `bash`. Defaults to `**`.
 */
export const permissionRuleSchema = z.strictObject({
  tool: z.string().min(1),
  pattern: z.string().min(1).default('**'),
  action: z.enum(['allow', 'deny', 'ask']),
});

/**
 * File confinement switches of `execution_policy` (#12.6).
 * - `allow_git_writes`: lets `write_file`/`edit_file` write under `.git/` (any repository's,
 *   submodules included). Off by default: a hook or `core.fsmonitor` written there runs on the
 *   next git command, the server's own included.
 */
const fileConfinementShape = {
  allow_git_writes: z.boolean().default(false),
};

/**
 * What tools may do, and where their processes run.
 * - `sandbox`: `local` = NO isolation (tools run as the server's user on this host, confined to
 *   the working directory by path checks only); `bwrap` = every tool process and every git
 *   command of the server runs under bubblewrap (see ../sandbox/bwrap-args.ts); `auto` = `bwrap`
 *   when a start-up probe shows it works, else `local`.
 * - `allow_network`: the `bwrap` sandbox gets the host's network (else none at all).
 * - `env`: variables added to the allowlisted environment of tool processes.
 * - `allowed_commands` lists bare command names; empty means any command when `allow_shell`.
 */
export const executionPolicySchema = z.strictObject({
  sandbox: z.enum(['local', 'bwrap', 'auto']).default('local'),
  allow_read: z.boolean().default(true),
  allow_write: z.boolean().default(false),
  allow_shell: z.boolean().default(false),
  allow_network: z.boolean().default(false),
  allowed_commands: z
    .array(z.string().regex(/^[^\s;&|<>()$`'"\\]+$/, 'expected a bare command name'))
    .default([]),
  permission_rules: z.array(permissionRuleSchema).default([]),
  env: z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name'),
      z.string(),
    )
    .default({}),
  ...fileConfinementShape,
});

/** A named agent role; `tools` (when set) narrows the tools the execution policy allows. */
export const agentSchema = z.strictObject({
  id: z.string().min(1),
  system_prompt: z.string().optional(),
  tools: z.array(z.enum(HARNESS_TOOL_NAMES)).optional(),
  max_iterations: positiveInt().optional(),
});

const modelPolicySchema = z.strictObject({
  primary: z.string().regex(/^\S+$/, 'expected "provider:model" or a bare model id').optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_iterations: positiveInt().default(25),
});

/**
 * `checks`: with `enabled`, `custom_steps` run after the model's last turn, in the run's sandbox,
 * each with its own timeout; `on_failure: fail` fails the run when one fails (`report`: only reported).
 */
const checksSchema = z.strictObject({
  enabled: z.boolean().default(false),
  on_failure: z.enum(['report', 'fail']).default('report'),
  custom_steps: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        command: z.string().min(1),
        timeout_seconds: positiveInt().default(120),
      }),
    )
    .default([]),
});

const limitsSchema = z.strictObject({
  task_timeout_seconds: positiveInt().default(600),
  max_input_bytes: positiveInt().default(65_536),
  max_output_bytes: positiveInt().default(1_048_576),
  /** Sandbox rlimits (`bwrap`): processes per sandbox, address space, file size, CPU seconds. */
  max_processes: positiveInt().default(256),
  max_address_space_bytes: positiveInt().default(8 * 1024 ** 3),
  max_file_bytes: positiveInt().default(1024 ** 3),
  max_cpu_seconds: positiveInt().default(600),
});

const baseSchema = z.strictObject({
  version: z.literal(HARNESS_SPEC_VERSION).default(HARNESS_SPEC_VERSION),
  name: z.string().min(1),
  description: z.string().default(''),
  inherits: z.string().min(1).optional(),
  flavor: z.enum(['coding', 'no_tool']).default('coding'),
  model_policy: modelPolicySchema.prefault({}),
  execution_policy: executionPolicySchema.prefault({}),
  agents: z.array(agentSchema).default([]),
  context: z
    .strictObject({
      instruction_files: z.array(z.string().min(1)).default(DEFAULT_INSTRUCTION_FILES),
    })
    .prefault({}),
  checks: checksSchema.prefault({}),
  limits: limitsSchema.prefault({}),
  metadata: z.record(z.string(), z.unknown()).default({}),
});

/**
 * A validated, fully defaulted HarnessSpec (format version 1). Every object is strict: an
 * unknown key is an error, so a typo cannot silently weaken a policy. Agent ids must be unique.
 * `flavor: no_tool` turns every `allow_*` permission off. Units: `*_seconds` seconds, `*_bytes`
 * bytes (UTF-8). `inherits`/`extends` are resolved by the loader, not by this schema; in the
 * output `inherits` only records what the spec named.
 * @see ./harness-spec.loader.ts to read files (YAML/JSON, `harness:` wrapper, inheritance).
 */
export const harnessSpecSchema = baseSchema
  .superRefine((spec, ctx) => {
    const seen = new Set<string>();
    spec.agents.forEach((agent, i) => {
      if (seen.has(agent.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['agents', i, 'id'],
          message: `duplicate agent id "${agent.id}"`,
        });
      }
      seen.add(agent.id);
    });
  })
  .transform((spec) => {
    if (spec.flavor !== 'no_tool') return spec;
    const execution_policy = {
      ...spec.execution_policy,
      allow_read: false,
      allow_write: false,
      allow_shell: false,
      allow_network: false,
    };
    return { ...spec, execution_policy };
  });

/** A validated HarnessSpec: the output of {@link harnessSpecSchema}, every default applied. */
export type HarnessSpec = z.infer<typeof harnessSpecSchema>;

/** One entry of `execution_policy.permission_rules`. */
export type PermissionRule = HarnessSpec['execution_policy']['permission_rules'][number];
