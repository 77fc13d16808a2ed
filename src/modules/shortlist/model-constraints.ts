import { z } from 'zod';
import {
  ACP_RULE,
  EDITOR_RULES,
  LANGUAGE_RULES,
  LICENSE_RULES,
  LOCAL_MODELS_RULE,
  OPEN_SOURCE_RULE,
  POLICY_RULES,
  SUPPLIED_RULE,
  TERMINAL_RULE,
} from './request-constraints';
import type { ShortlistConstraints, TermRule } from './request-constraints';

const ids = (rules: readonly TermRule[]) => rules.map((r) => r.id) as [string, ...string[]];

/**
 * What a model may return when it reads a shortlist request: only constraints the catalogue has a
 * field for. Unknown keys and unknown list values are dropped (not an error): a model that invents
 * a constraint must not fail the request, nor change the answer.
 */
export const modelConstraintsSchema = z.object({
  openSource: z.boolean().optional(),
  licenses: z.array(z.string()).optional(),
  localModels: z.boolean().optional(),
  sandbox: z.boolean().optional(),
  approvals: z.boolean().optional(),
  shell: z.boolean().optional(),
  network: z.boolean().optional(),
  languages: z.array(z.string()).optional(),
  editors: z.array(z.string()).optional(),
  acp: z.boolean().optional(),
  terminal: z.boolean().optional(),
  includeSupplied: z.boolean().optional(),
});

/** Parsed model output. */
export type ModelConstraints = z.infer<typeof modelConstraintsSchema>;

/** The instructions the model gets: constraints only, never the catalogue, never a harness name. */
export function constraintsPrompt(): string {
  return [
    'Read a request for a coding-agent harness and return ONLY a JSON object with these optional keys:',
    'openSource, localModels, sandbox, approvals, shell, network, acp, terminal, includeSupplied (booleans);',
    `licenses (any of ${ids(LICENSE_RULES).join(', ')}); languages (any of ${ids(LANGUAGE_RULES).join(', ')});`,
    `editors (any of ${ids(EDITOR_RULES).join(', ')}).`,
    'Set only what the request asks for. Do not name or recommend any harness. No prose, no code fences.',
  ].join('\n');
}

/**
 * Parses a model's answer (JSON, possibly in a code fence).
 * @throws {Error} Not JSON, or not an object of the schema's types.
 */
export function parseModelConstraints(text: string): ModelConstraints {
  const json = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/```$/, '')
    .trim();
  return modelConstraintsSchema.parse(JSON.parse(json));
}

/**
 * The keyword parser's constraints with the model's added: flags are OR-ed (a keyword flag the
 * model omits is kept), lists are unioned and filtered to the ids the catalogue knows; `understood`
 * lists the labels of everything that is on.
 */
export function mergeConstraints(
  keyword: ShortlistConstraints,
  model: ModelConstraints,
): ShortlistConstraints {
  const list = (own: string[], extra: string[] | undefined, rules: readonly TermRule[]) => {
    const known = new Set(rules.map((r) => r.id));
    return [...new Set([...own, ...(extra ?? []).filter((v) => known.has(v))])];
  };
  const merged: ShortlistConstraints = {
    openSource: keyword.openSource || model.openSource === true,
    licenses: list(keyword.licenses, model.licenses, LICENSE_RULES),
    localModels: keyword.localModels || model.localModels === true,
    sandbox: keyword.sandbox || model.sandbox === true,
    approvals: keyword.approvals || model.approvals === true,
    shell: keyword.shell || model.shell === true,
    network: keyword.network || model.network === true,
    languages: list(keyword.languages, model.languages, LANGUAGE_RULES),
    editors: list(keyword.editors, model.editors, EDITOR_RULES),
    acp: keyword.acp || model.acp === true,
    terminal: keyword.terminal || model.terminal === true,
    includeSupplied: keyword.includeSupplied || model.includeSupplied === true,
    understood: [],
  };
  return { ...merged, understood: labelsOf(merged) };
}

function labelsOf(c: ShortlistConstraints): string[] {
  const label = (rules: readonly TermRule[], id: string) =>
    rules.find((r) => r.id === id)?.label ?? id;
  const policy = POLICY_RULES.filter(
    (r) => c[r.id as 'sandbox' | 'approvals' | 'shell' | 'network'],
  );
  return [
    ...(c.openSource ? [OPEN_SOURCE_RULE.label] : []),
    ...c.licenses.map((id) => label(LICENSE_RULES, id)),
    ...(c.localModels ? [LOCAL_MODELS_RULE.label] : []),
    ...policy.map((r) => r.label),
    ...c.languages.map((id) => label(LANGUAGE_RULES, id)),
    ...c.editors.map((id) => label(EDITOR_RULES, id)),
    ...(c.acp ? [ACP_RULE.label] : []),
    ...(c.terminal ? [TERMINAL_RULE.label] : []),
    ...(c.includeSupplied ? [SUPPLIED_RULE.label] : []),
  ];
}
