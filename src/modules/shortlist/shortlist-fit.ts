import type { CatalogueEntry } from './catalogue.schema';
import {
  ACP_RULE,
  EDITOR_RULES,
  LANGUAGE_RULES,
  LICENSE_RULES,
  LOCAL_MODELS_RULE,
  POLICY_RULES,
  TERMINAL_RULE,
  type ShortlistConstraints,
  type TermRule,
} from './request-constraints';

/** What an entry with labelled policies declares, or does not, for the policy topics asked. */
export interface PolicyFit {
  /** e.g. `sandboxing (Sandbox: local)`. */
  declares: string[];
  /** e.g. `shell access (Shell: blocked)`, `local models (not labelled)`. */
  doesNotDeclare: string[];
}

/** One catalogue entry as shown in an answer. Readiness is shown, never scored. */
export interface ShortlistEntryView {
  id: string;
  name: string;
  /** Number of requested constraints the catalogue shows the entry meeting (0..n). */
  score: number;
  /** Labels of the constraints met, e.g. `open source`, `ACP (Agent Client Protocol)`. */
  matched: string[];
  /**
   * Labels of the constraints the catalogue records it not meeting ("does not fit"): a recorded
   * openness or licence that differs, a labelled policy that turns the topic off, a recorded
   * language that differs.
   */
  unmatched: string[];
  /**
   * Labels of the constraints the catalogue is silent on for this entry ("not recorded in the
   * catalogue"): no openness or licence published, no mention of the language, editor, ACP or
   * terminal, no label for a policy topic. A policy topic asked of an entry without labelled
   * policies is in none of the lists: the answer says the catalogue cannot say.
   */
  unknown: string[];
  readiness: CatalogueEntry['readiness'];
  openness: CatalogueEntry['openness'];
  license: string;
  homepage: string;
  repository: string;
  installCommand: string;
  /** Present only for entries with labelled policies, when a policy topic was asked. */
  policyFit?: PolicyFit;
}

/** Readiness labels of Hub schema 1.7. */
export const READINESS_LABELS: Record<CatalogueEntry['readiness'], string> = {
  ready: 'Ready',
  'setup-required': 'Needs setup',
  'not-supported': 'Integration pending',
};

/** Openness labels of Hub schema 1.7. */
export const OPENNESS_LABELS: Record<CatalogueEntry['openness'], string> = {
  open: 'Open source',
  'source-available': 'Source available',
  closed: 'Proprietary',
  '': 'Not published',
};

/** A capability the catalogue states only as a labelled policy (`Sandbox: local`). */
export interface PolicyTopic {
  /** The {@link ShortlistConstraints} flag that asks for it. */
  readonly id: 'sandbox' | 'approvals' | 'shell' | 'network' | 'localModels';
  /** Human label, e.g. `sandboxing`. */
  readonly label: string;
  /** Policy labels (before the colon, lower case) that state it. */
  readonly keys: readonly string[];
  /** Values (lower case) meaning "not offered". */
  readonly off: readonly string[];
}

const DENIED = ['none', 'off', 'no', 'false', 'disabled', 'blocked', 'deny', 'denied'];
const policyLabel = (id: string): string => POLICY_RULES.find((r) => r.id === id)?.label ?? id;

/**
 * Policy topics with their labels. `Approvals: deny` is a strict gate (declares approvals);
 * `Approvals: none` and `Approvals: yolo` mean no gate. `Local:` / `Ollama:` labels state local
 * model support; no entry in the shipped catalogue carries one.
 */
export const POLICY_TOPICS: readonly PolicyTopic[] = [
  { id: 'sandbox', label: policyLabel('sandbox'), keys: ['sandbox'], off: ['none', 'off'] },
  {
    id: 'approvals',
    label: policyLabel('approvals'),
    keys: ['approvals', 'approval'],
    off: ['none', 'yolo', 'off'],
  },
  { id: 'shell', label: policyLabel('shell'), keys: ['shell', 'bash'], off: DENIED },
  { id: 'network', label: policyLabel('network'), keys: ['network'], off: DENIED },
  { id: 'localModels', label: LOCAL_MODELS_RULE.label, keys: ['local', 'ollama'], off: DENIED },
];

/** The policy topics a request asks about, in {@link POLICY_TOPICS} order. */
export function askedTopics(c: ShortlistConstraints): PolicyTopic[] {
  return POLICY_TOPICS.filter((t) => c[t.id]);
}

/** Whether anything besides "include SuperQode's own harnesses" was asked. */
export function askedAnything(c: ShortlistConstraints): boolean {
  const lists = c.licenses.length + c.languages.length + c.editors.length;
  const flags = c.openSource || c.acp || c.terminal;
  return lists > 0 || flags || askedTopics(c).length > 0;
}

/**
 * Reads an entry's labelled policies for the given topics. Meaningful only for entries with
 * `structuredPolicy`; a topic without a label counts as not declared.
 * @returns `declares` / `doesNotDeclare` items as `<topic label> (<policy line>)`.
 */
export function policyFit(e: CatalogueEntry, topics: readonly PolicyTopic[]): PolicyFit {
  const fit: PolicyFit = { declares: [], doesNotDeclare: [] };
  for (const topic of topics) {
    const line = e.policies.find((p) => topic.keys.includes(p.split(':')[0].trim().toLowerCase()));
    const value = line?.split(':').slice(1).join(':').trim().toLowerCase();
    if (line && value && !topic.off.includes(value)) fit.declares.push(`${topic.label} (${line})`);
    else fit.doesNotDeclare.push(`${topic.label} (${line ?? 'not labelled'})`);
  }
  return fit;
}

/** Leading word of each `;`-separated licence part: `Apache-2.0` → `apache`, `FSL-1.1-MIT` → `fsl`. */
function licenseFamilies(license: string): string[] {
  return license.split(';').map((p) => /^\s*([A-Za-z]+)/.exec(p)?.[1]?.toLowerCase() ?? '');
}

/** Free text an entry declares about itself (URLs and ids excluded). */
function entryText(e: CatalogueEntry): string {
  const parts = [e.name, e.runtime, e.interface, e.language ?? ''];
  return [...parts, ...e.aliases, ...e.capabilities, ...e.tools].join('\n');
}

function textRules(c: ShortlistConstraints): TermRule[] {
  return [
    ...LANGUAGE_RULES.filter((r) => c.languages.includes(r.id)),
    ...EDITOR_RULES.filter((r) => c.editors.includes(r.id)),
    ...(c.acp ? [ACP_RULE] : []),
    ...(c.terminal ? [TERMINAL_RULE] : []),
  ];
}

/**
 * Scores one entry against the request: one point per requested constraint the catalogue shows
 * it meeting. Open source = openness `open`; licence = leading word of the licence string;
 * languages, editors, ACP and terminal = whole-word match in name, runtime, interface, aliases,
 * capabilities and tools; policy topics = labelled policies only. Readiness is never used.
 * A constraint the entry's record is silent on goes to `unknown`, never to `unmatched`.
 * @returns The entry's view, with `policyFit` when it has labelled policies and a topic was asked.
 */
export function toView(e: CatalogueEntry, c: ShortlistConstraints): ShortlistEntryView {
  const matched: string[] = [];
  const unmatched: string[] = [];
  const unknown: string[] = [];
  /** `recorded`: the catalogue states a fact about this constraint for the entry. */
  const check = (ok: boolean, label: string, recorded: boolean) =>
    (ok ? matched : recorded ? unmatched : unknown).push(label);
  if (c.openSource) check(e.openness === 'open', 'open source', e.openness !== '');
  const families = licenseFamilies(e.license);
  const licenses = LICENSE_RULES.filter((l) => c.licenses.includes(l.id));
  // A recorded closed project is not under an open licence even when no licence string is given.
  const licenceRecorded = e.license.trim() !== '' || e.openness === 'closed';
  licenses.forEach((r) => check(families.includes(r.id.toLowerCase()), r.label, licenceRecorded));
  const text = entryText(e);
  const languages = new Set(LANGUAGE_RULES.filter((r) => c.languages.includes(r.id)));
  textRules(c).forEach((r) =>
    check(r.pattern.test(text), r.label, languages.has(r) && Boolean(e.language?.trim())),
  );
  const topics = askedTopics(c);
  const fit = e.structuredPolicy && topics.length > 0 ? policyFit(e, topics) : undefined;
  topics.forEach((t) => {
    if (!fit) return;
    const labelled = e.policies.some((p) => t.keys.includes(p.split(':')[0].trim().toLowerCase()));
    check(
      fit.declares.some((d) => d.startsWith(`${t.label} (`)),
      t.label,
      labelled,
    );
  });
  const { id, name, readiness, openness, license, homepage, repository, installCommand } = e;
  const base = {
    id,
    name,
    score: matched.length,
    matched,
    unmatched,
    unknown,
    readiness,
    openness,
  };
  const rest = { license, homepage, repository, installCommand };
  return { ...base, ...rest, ...(fit ? { policyFit: fit } : {}) };
}

// One collator each: `localeCompare` with options builds a new ICU collator per call (a
// profile showed the sort at 22% of a request's CPU).
const NAME_ORDER = new Intl.Collator('en', { sensitivity: 'base' });
const ID_ORDER = new Intl.Collator('en');

/**
 * Scores and orders entries: score descending, then popularityRank ascending (lower = better
 * known: Codex 10, Claude 20, Cursor 30, Copilot 40; 500 and 700 are "unranked"), then name
 * (case-insensitive), then id.
 * @returns One view per entry, best first.
 */
export function rankEntries(
  entries: readonly CatalogueEntry[],
  c: ShortlistConstraints,
): ShortlistEntryView[] {
  const pairs = entries.map((entry) => ({ entry, view: toView(entry, c) }));
  pairs.sort(
    (a, b) =>
      b.view.score - a.view.score ||
      a.entry.popularityRank - b.entry.popularityRank ||
      NAME_ORDER.compare(a.entry.name, b.entry.name) ||
      ID_ORDER.compare(a.entry.id, b.entry.id),
  );
  return pairs.map((p) => p.view);
}
