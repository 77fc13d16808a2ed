import type { z } from 'zod';

/** Variables whose value is a secret (or carries one): never echoed in an error. */
const SECRET_VARIABLES = new Set([
  'SUPERQODE_A2A_TOKEN',
  'SUPERQODE_A2A_KEY_SECRET',
  // Not secret itself, but an API key or the secret pasted into it by mistake would be echoed.
  'SUPERQODE_A2A_REVOKED_KEYS',
  'SUPERQODE_A2A_DATABASE_URL',
  'SUPERQODE_A2A_REDIS_URL',
]);

/** One invalid setting: the variable, what is wrong, and the value received (non-secret only). */
export interface ConfigIssue {
  readonly variable: string;
  readonly problem: string;
  /** The raw value, or undefined when it is a secret or was absent. */
  readonly received?: string;
}

/**
 * Names a setting the way the user gave it: the CLI flag (`--port`) when a flag was the source,
 * else the variable (`SUPERQODE_A2A_PORT`). `preferFlag`: a setting a hint suggests next to a flag
 * the user typed, named as a flag when it has one.
 */
export type SettingNamer = (variable: string, preferFlag?: boolean) => string;

const byVariable: SettingNamer = (variable) => variable;

/** OpenAI-compatible servers people name as a provider, with their usual local base URL. */
const OPENAI_COMPATIBLE: ReadonlyArray<[RegExp, string]> = [
  [/^ollama$/i, 'http://127.0.0.1:11434/v1'],
  [/^vllm$/i, 'http://127.0.0.1:8000/v1'],
  [/^lm-?studio$/i, 'http://127.0.0.1:1234/v1'],
  [/^llama[.-]?cpp$|^llamacpp$/i, 'http://127.0.0.1:8080/v1'],
];

/** A hint for a value users often get wrong, in the user's terms (flags or variables). */
function hintFor(issue: ConfigIssue, name: SettingNamer): string | undefined {
  if (issue.variable !== 'SUPERQODE_A2A_HARNESS_PROVIDER' || issue.received === undefined) return;
  const match = OPENAI_COMPATIBLE.find(([re]) => re.test(issue.received ?? ''));
  if (!match) return;
  const provider = name('SUPERQODE_A2A_HARNESS_PROVIDER');
  const flags = provider.startsWith('--');
  // The base URL is named the way the provider was given (a flag user gets flags).
  const baseUrl = name('SUPERQODE_A2A_HARNESS_BASE_URL', flags);
  return `${issue.received} speaks the OpenAI protocol: use ${assignment(provider, 'openai-compatible')} ${assignment(baseUrl, match[1])}`;
}

/** `--flag value` or `VARIABLE=value`. */
function assignment(setting: string, value: string): string {
  return setting.startsWith('--') ? `${setting} ${value}` : `${setting}=${value}`;
}

/** Plain words for a zod issue (no zod jargon such as "received NaN"). */
/** A schema issue in the words the server's start-up error uses (`must be one of: …`). */
export function settingProblem(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'number' ? 'must be a number' : `must be a ${issue.expected}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `must be at least ${String(issue.minimum)} characters`
        : `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${String(issue.maximum)} characters`
        : `must be at most ${String(issue.maximum)}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_union':
      return 'must be true or false';
    case 'invalid_format':
      return issue.format === 'url' ? 'must be an absolute URL' : `must be a ${issue.format}`;
    default:
      return issue.message;
  }
}

/**
 * Invalid configuration: one {@link ConfigIssue} per invalid variable. Its message names the
 * variables; {@link ConfigValidationError.describe} names what the user typed instead (issue #19).
 * Secret values are never part of either.
 */
export class ConfigValidationError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super(describeIssues(issues, byVariable));
    this.name = 'ConfigValidationError';
    this.issues = issues;
  }

  /** Builds the issues of a failed schema parse of `raw`. */
  static fromZod(issues: readonly z.core.$ZodIssue[], raw: Record<string, unknown>) {
    return new ConfigValidationError(
      issues.map((i) => {
        const variable = i.path.map(String).join('.');
        const value = raw[variable];
        const shown = SECRET_VARIABLES.has(variable) || value === undefined ? undefined : value;
        return {
          variable,
          problem: settingProblem(i),
          ...(shown === undefined ? {} : { received: String(shown as string | number) }),
        };
      }),
    );
  }

  /** The message with each setting named by `name` (e.g. the flag the user typed). */
  describe(name: SettingNamer): string {
    return describeIssues(this.issues, name);
  }
}

function describeIssues(issues: readonly ConfigIssue[], name: SettingNamer): string {
  const lines = issues.map((i) => {
    const setting = name(i.variable);
    const given =
      i.received === undefined ? setting : assignment(setting, JSON.stringify(i.received));
    const hint = hintFor(i, name);
    return `  ${given}: ${i.problem}${hint ? ` (${hint})` : ''}`;
  });
  return `Invalid configuration:\n${lines.join('\n')}`;
}
