/**
 * What a free-text "which coding harness fits me?" request asks for, as understood by the
 * keyword reader {@link parseConstraints}. Every field defaults to "not asked".
 */
export interface ShortlistConstraints {
  /** Asked for open-source software ("open source", "oss", "foss", "free software"). */
  openSource: boolean;
  /** Licence families asked for, canonical ids of {@link LICENSE_RULES} (`MIT`, `Apache`…). */
  licenses: string[];
  /** Asked to run local models (Ollama, llama.cpp, LM Studio, offline, self-hosted models). */
  localModels: boolean;
  /** Asked about sandboxing; answerable only from labelled policies (`Sandbox: local`). */
  sandbox: boolean;
  /** Asked about approvals / permissions; answerable only from `Approvals:` labels. */
  approvals: boolean;
  /** Asked about shell access; answerable only from `Shell:` / `Bash:` labels. */
  shell: boolean;
  /** Asked about network access; answerable only from `Network:` labels. */
  network: boolean;
  /** Languages / runtimes asked for, ids of {@link LANGUAGE_RULES} (`python`, `javascript`…). */
  languages: string[];
  /** Editors / IDEs asked for, ids of {@link EDITOR_RULES} (`vscode`, `jetbrains`, `ide`…). */
  editors: string[];
  /** Asked for the Agent Client Protocol (ACP). */
  acp: boolean;
  /** Asked for a terminal / command-line agent. */
  terminal: boolean;
  /** Asked for SuperQode's own harnesses ("superqode", "built-in", "native"). */
  includeSupplied: boolean;
  /** Human labels of everything recognised, in a stable order (e.g. `open source`, `Python`). */
  understood: string[];
}

/** One recognisable term: canonical id, human label and a whole-word, case-insensitive pattern. */
export interface TermRule {
  /** Canonical id stored in {@link ShortlistConstraints}. */
  readonly id: string;
  /** Human label used in `understood`, `matched` and the answer text. */
  readonly label: string;
  /** Whole-word, case-insensitive pattern; also used to find the term in catalogue text. */
  readonly pattern: RegExp;
}

/**
 * Builds a whole-word, case-insensitive pattern: the alternatives must not touch a letter, digit
 * or underscore on either side ("across" is not "oss", "javascript" is not "java", "gopher" is
 * not "go"); hyphens, dots and spaces count as boundaries. Spaces in `source` match any run of
 * whitespace or a hyphen ("open source" matches "open-source").
 * @param source - Regex alternatives without anchors, e.g. `oss|foss`.
 */
export function wholeWord(source: string): RegExp {
  const spaced = source.replace(/ /g, '[\\s-]+');
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${spaced})(?![\\p{L}\\p{N}_])`, 'iu');
}

const rule = (id: string, label: string, source: string): TermRule => ({
  id,
  label,
  pattern: wholeWord(source),
});

/** Open-source wording. */
export const OPEN_SOURCE_RULE = rule(
  'openSource',
  'open source',
  'open source|opensource|oss|foss|free software',
);
/** Local-model wording. */
export const LOCAL_MODELS_RULE = rule(
  'localModels',
  'local models',
  'local models?|local llms?|ollama|offline|self hosted models?|selfhosted models?|llama\\.cpp|lm studio|lmstudio',
);
/** ACP wording; also matched against catalogue text (`via ACP`, `Agent Client Protocol`). */
export const ACP_RULE = rule('acp', 'ACP (Agent Client Protocol)', 'acp|agent client protocol');
/** Terminal wording; also matched against catalogue text (`via CLI`, `Terminal harness`). */
export const TERMINAL_RULE = rule('terminal', 'terminal / CLI', 'terminal|cli|command line|tui');
/** Wording that asks for SuperQode's own harnesses. */
export const SUPPLIED_RULE = rule(
  'includeSupplied',
  "SuperQode's own harnesses",
  'superqode|built in|builtin|native',
);

/** Policy topics; only entries with labelled policies can be said to declare them. */
export const POLICY_RULES: readonly TermRule[] = [
  rule('sandbox', 'sandboxing', 'sandbox|sandboxed|sandboxing|sandboxes'),
  rule('approvals', 'approvals', 'approvals?|approve|permissions?|human in the loop'),
  rule('shell', 'shell access', 'shell|bash'),
  rule('network', 'network access', 'network|networking|internet'),
];

/** Licence families; the id is compared with the leading word of a catalogue licence string. */
export const LICENSE_RULES: readonly TermRule[] = [
  rule('MIT', 'MIT licence', 'mit'),
  rule('Apache', 'Apache licence', 'apache(?:[\\s-]?v?2(?:\\.0)?)?'),
  rule('GPL', 'GPL licence', 'gpl(?:v?[23](?:\\.0)?)?|gnu gpl'),
  rule('AGPL', 'AGPL licence', 'agpl(?:v?3(?:\\.0)?)?'),
  rule('LGPL', 'LGPL licence', 'lgpl(?:v?[23](?:\\.[01])?)?'),
  rule('BSD', 'BSD licence', 'bsd'),
  rule('MPL', 'MPL licence', 'mpl(?:[\\s-]?2(?:\\.0)?)?|mozilla public license'),
  rule('ISC', 'ISC licence', 'isc'),
];

/** Languages and runtimes; `javascript` never matches `java`, `gopher` never matches `go`. */
export const LANGUAGE_RULES: readonly TermRule[] = [
  rule('python', 'Python', 'python'),
  rule('typescript', 'TypeScript', 'typescript'),
  rule('javascript', 'JavaScript', 'javascript|js|node\\.js|nodejs'),
  rule('rust', 'Rust', 'rust'),
  rule('go', 'Go', 'go|golang'),
  rule('java', 'Java', 'java'),
  rule('kotlin', 'Kotlin', 'kotlin'),
  rule('ruby', 'Ruby', 'ruby'),
  rule('php', 'PHP', 'php'),
  rule('csharp', 'C#', 'c#|csharp'),
  rule('cpp', 'C++', 'c\\+\\+|cpp'),
  rule('swift', 'Swift', 'swift'),
];

/** Editors and IDEs. */
export const EDITOR_RULES: readonly TermRule[] = [
  rule('vscode', 'VS Code', 'vscode|vs code|visual studio code'),
  rule('jetbrains', 'JetBrains', 'jetbrains|intellij'),
  rule('zed', 'Zed', 'zed'),
  rule('neovim', 'Neovim', 'neovim|nvim'),
  rule('vim', 'Vim', 'vim'),
  rule('emacs', 'Emacs', 'emacs'),
  rule('ide', 'an IDE', 'ides?'),
  rule('editor', 'an editor', 'editors?'),
];

const matchAll = (text: string, rules: readonly TermRule[]): TermRule[] =>
  rules.filter((r) => r.pattern.test(text));

/**
 * Reads a free-text request with whole-word, case-insensitive keyword rules.
 * @param text - The user's request, any length; an empty string yields no constraints.
 * @returns Constraints plus `understood`, the labels of what was recognised, in the order:
 *   open source, licences, local models, policies, languages, editors, ACP, terminal, supplied.
 * @see ShortlistService.answer, which ranks the catalogue against the result.
 */
export function parseConstraints(text: string): ShortlistConstraints {
  const has = (r: TermRule): boolean => r.pattern.test(text);
  const licenses = matchAll(text, LICENSE_RULES);
  const policies = matchAll(text, POLICY_RULES);
  const languages = matchAll(text, LANGUAGE_RULES);
  const editors = matchAll(text, EDITOR_RULES);
  const flags = [OPEN_SOURCE_RULE, LOCAL_MODELS_RULE, ACP_RULE, TERMINAL_RULE, SUPPLIED_RULE];
  const on = new Set(flags.filter(has).map((r) => r.id));
  const policyOn = new Set(policies.map((r) => r.id));
  const understood = [
    ...(on.has('openSource') ? [OPEN_SOURCE_RULE] : []),
    ...licenses,
    ...(on.has('localModels') ? [LOCAL_MODELS_RULE] : []),
    ...policies,
    ...languages,
    ...editors,
    ...flags.slice(2).filter((r) => on.has(r.id)),
  ].map((r) => r.label);
  return {
    openSource: on.has('openSource'),
    licenses: licenses.map((r) => r.id),
    localModels: on.has('localModels'),
    sandbox: policyOn.has('sandbox'),
    approvals: policyOn.has('approvals'),
    shell: policyOn.has('shell'),
    network: policyOn.has('network'),
    languages: languages.map((r) => r.id),
    editors: editors.map((r) => r.id),
    acp: on.has('acp'),
    terminal: on.has('terminal'),
    includeSupplied: on.has('includeSupplied'),
    understood,
  };
}
