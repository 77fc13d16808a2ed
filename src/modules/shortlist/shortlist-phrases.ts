import type { CatalogueEntry } from './catalogue.schema';

/**
 * Recognises questions about choosing or comparing coding agents/harnesses (the shortlist's
 * domain) as opposed to instructions about the code in the checkout (the harness's domain).
 * Used by the skill router only when several skills are served and the request names none.
 *
 * An instruction wins: a message that starts with a verb about the code ("fix", "add",
 * "refactor", …) or names a file (`src/main.ts`, `` `x` ``) is never a shortlist question.
 * Otherwise a question matches when it asks which/what agent, asks for a recommendation or an
 * alternative, asks for the best/top agent, or compares catalogue entries by name.
 */

/** Agent nouns: "coding agent", "harnesses", "AI coding tools", "coding assistant", … */
const AGENT =
  String.raw`(?:(?:ai|coding|code|programming|dev)[- ](?:tools?|clis?)\b|` +
  String.raw`(?:agents?|harness(?:es)?|assistants?|copilots?)\b)`;

/** Code nouns that make "agent"/"harness" part of the code ("the agent card", "harness spec"). */
const CODE_NOUN =
  'card|cards|executor|skill|skills|class|module|modules|file|files|spec|specs|service|config|' +
  'run|runs|loop|test|tests|ledger|template|templates|function|method|code|prompt|adapter|' +
  'entry|router|tool|tools|controller|interface|protocol|settings|option|options|session|sessions';

/** "agent" not followed by a code noun, a dot-suffix or a hyphenated compound. */
const NOT_CODE = String.raw`(?!\s*(?:${CODE_NOUN})\b)(?![._-]\w)`;

/** A word that is not a code noun (between "which" and the agent noun). */
const FREE_WORD = String.raw`(?:(?!(?:${CODE_NOUN}|function|line|part|step|command|variable|type)\b)[\w'-]+\s+)`;

const AGENT_Q = `${AGENT}${NOT_CODE}`;

const QUESTION_PATTERNS: readonly RegExp[] = [
  new RegExp(String.raw`\bshortlist\b${NOT_CODE}`, 'i'),
  new RegExp(String.raw`\b(?:which|what)(?:'s|\s+is|\s+are)?\s+${FREE_WORD}{0,4}?${AGENT_Q}`, 'i'),
  new RegExp(
    String.raw`\b(?:recommend\w*|suggest\w*|advi[cs]e|choos\w*|pick\w*|find me|looking for|help me)\b` +
      String.raw`[^.?!]{0,40}?\b${AGENT_Q}`,
    'i',
  ),
  new RegExp(String.raw`\b(?:need|want|after)\s+(?:a|an|some|one)\b[^.?!]{0,30}?\b${AGENT_Q}`, 'i'),
  new RegExp(
    String.raw`\b(?:best|top|good|right|better|recommended|favou?rite|popular|free)\s+${FREE_WORD}{0,3}?${AGENT_Q}`,
    'i',
  ),
  new RegExp(
    String.raw`\b(?:is there|are there)\s+(?:a|an|any|some)\b[^.?!]{0,40}?\b${AGENT_Q}`,
    'i',
  ),
  new RegExp(String.raw`\b(?:agents|harnesses|assistants)\s+(?:that|which|with|supporting)\b`, 'i'),
  new RegExp(String.raw`\b(?:compare|comparing|comparison)\b[^.?!]{0,20}?\b${AGENT_Q}`, 'i'),
  new RegExp(String.raw`\balternatives?\s+(?:to|for)\b[^.?!]{0,20}?\b${AGENT_Q}`, 'i'),
];

/** Words that, with two agent names (or one and an agent noun), make a comparison question. */
const COMPARE_WORDS =
  /\b(?:compare[sd]?|comparing|comparison|vs\.?|versus|better than|worse than|difference between|or|alternatives?\s+(?:to|for)|instead of|should i use|do you recommend|would you recommend)\b/i;

/** Phrases that ask about one named entry's rivals ("alternatives to Cursor"). */
const ONE_NAME_IS_ENOUGH = /\b(?:alternatives?\s+(?:to|for)|instead of|similar to|like)\b/i;

/** Verbs that open an instruction about the code (the harness's work). */
const INSTRUCTION_START =
  /^\s*(?:please\s+|can you\s+|could you\s+)?(?:fix|add|refactor|rename|run|write|implement|remove|delete|update|change|debug|review|create|bump|migrate|convert|make|document|optimi[sz]e|print|read|replace|explain|summari[sz]e|check|move|build|install|configure|set up|find where|show me the|open\s+(?:the|a|an|src|file)|edit|generate|port|upgrade|lint|format|commit|revert|deploy)\b/i;

/** A file path, a file name with a code extension, or a code span. */
const NAMES_A_FILE =
  /`|\b[\w.-]+\/[\w./-]+|\b[\w-]+\.(?:ts|tsx|jsx|mjs|cjs|py|rs|go|java|kt|rb|json|ya?ml|md|toml|sh|sql|c|cpp|h)\b/i;

/** Generic words never used alone as an entry's short name. */
const GENERIC = new Set([
  'code',
  'deep',
  'prime',
  'agent',
  'open',
  'core',
  'no',
  'tool',
  'github',
  'claude',
]);

/**
 * Names a user may call catalogue entries by, lower case: the name without parenthesised notes
 * ("Claude Code (ACP)" → "claude code"), and its first word when distinctive ("goose"). Names
 * shorter than three letters are left out (too many false hits).
 */
export function entryNames(entries: readonly CatalogueEntry[]): string[] {
  const names = new Set<string>();
  for (const e of entries) {
    const plain = e.name
      .replace(/\([^)]*\)/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase();
    if (plain.length >= 3) names.add(plain);
    const first = plain.split(' ')[0];
    if (first.length >= 4 && !GENERIC.has(first)) names.add(first);
  }
  return [...names];
}

/** Compiles the entry names into one whole-word pattern (longest first). */
export function namePattern(names: readonly string[]): RegExp {
  const escaped = [...names]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, String.raw`\s+`));
  return new RegExp(String.raw`(?<![\w-])(?:${escaped.join('|')})(?![\w-])`, 'gi');
}

/**
 * Whether `text` is a question about choosing or comparing coding agents/harnesses.
 * @param text - The user message's text parts, joined.
 * @param names - Compiled entry names from {@link namePattern} (global flag).
 */
export function isShortlistQuestion(text: string, names: RegExp): boolean {
  if (INSTRUCTION_START.test(text) || NAMES_A_FILE.test(text)) return false;
  if (QUESTION_PATTERNS.some((re) => re.test(text))) return true;
  if (!COMPARE_WORDS.test(text)) return false;
  const mentioned = new Set(
    (text.match(names) ?? []).map((m) => m.toLowerCase().replace(/\s+/g, ' ')),
  );
  if (mentioned.size >= 2) return true;
  return (
    mentioned.size === 1 && (ONE_NAME_IS_ENOUGH.test(text) || new RegExp(AGENT_Q, 'i').test(text))
  );
}
