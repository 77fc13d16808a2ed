import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CatalogueService } from './catalogue.service';
import type { CatalogueEntry } from './catalogue.schema';
import { parseConstraints, type ShortlistConstraints } from './request-constraints';
import {
  OPENNESS_LABELS,
  READINESS_LABELS,
  askedAnything,
  askedTopics,
  policyFit,
  rankEntries,
  toView,
  type PolicyTopic,
  type ShortlistEntryView,
} from './shortlist-fit';

export type { PolicyFit, ShortlistEntryView } from './shortlist-fit';

/** The skill's answer: readable text plus the same content as structured data. */
export interface ShortlistAnswer {
  /** Numbered plain-text shortlist; always ends with {@link NOT_A_MEASUREMENT}. */
  text: string;
  /** Ranked entries, best first, at most {@link SHORTLIST_SIZE}. */
  entries: ShortlistEntryView[];
  /** SuperQode's own runnable entries held back from ranking (catalogue order); else empty. */
  supplied: ShortlistEntryView[];
  /** What the request was read as (given, or from {@link parseConstraints}). */
  constraints: ShortlistConstraints;
  /** Caveats: unanswerable policy topics, fallbacks, entries not considered. */
  notes: string[];
  /** Hub schema version of the catalogue (e.g. `1.5`). */
  catalogueVersion: string;
}

/** How many ranked entries an answer lists. */
export const SHORTLIST_SIZE = 5;

/** Distinct constraint sets whose answers are kept (the answer is a pure function of them). */
export const ANSWER_CACHE_SIZE = 512;
/** Disclosure printed before SuperQode's own, unranked entries. */
export const SUPPLIED_DISCLOSURE = 'SuperQode supplies these itself; listed apart, not ranked';
/** Closing sentence of every answer text. */
export const NOT_A_MEASUREMENT = 'This is a catalogue shortlist, not a measurement.';

interface Selection {
  pool: CatalogueEntry[];
  heldBack: CatalogueEntry[];
  notes: string[];
}

/** Picks the ranking pool: runnable third-party entries, unless supplied ones must join. */
function select(all: readonly CatalogueEntry[], c: ShortlistConstraints): Selection {
  const runnable = all.filter((e) => e.runnable);
  const thirdParty = runnable.filter((e) => !e.superqodeSupplied);
  const supplied = runnable.filter((e) => e.superqodeSupplied);
  const notes: string[] = [];
  const skipped = all.length - runnable.length;
  if (skipped > 0) {
    notes.push(
      `${skipped} ecosystem-watch entries (integration pending) are not runnable and were ` +
        'not considered.',
    );
  }
  if (thirdParty.length === 0) {
    notes.push("The catalogue has no third-party harness, so SuperQode's own entries are ranked.");
    return { pool: supplied, heldBack: [], notes };
  }
  if (c.includeSupplied && supplied.length > 0) {
    notes.push("SuperQode's own harnesses were asked for, so they are ranked with the others.");
    return { pool: runnable, heldBack: [], notes };
  }
  return { pool: thirdParty, heldBack: supplied, notes };
}

/** `"Sandbox:"`, `"Shell:" or "Bash:"`: how the catalogue would label a topic. */
const labelsOf = (t: PolicyTopic): string =>
  t.keys.map((k) => `"${k[0].toUpperCase()}${k.slice(1)}:"`).join(' or ');

/** One note per asked policy topic that the catalogue cannot answer for some candidates. */
function policyNotes(pool: CatalogueEntry[], topics: PolicyTopic[]): string[] {
  const unlabelled = pool.filter((e) => !e.structuredPolicy).length;
  return topics.flatMap((t) => {
    const out: string[] = [];
    if (unlabelled > 0) {
      out.push(
        `${t.label}: the catalogue states this only as a labelled policy (${labelsOf(t)}). ` +
          `${unlabelled} of ${pool.length} candidate entries carry no labelled policies, so the ` +
          'catalogue cannot answer it for them; they were neither credited nor penalised.',
      );
    }
    const declared = pool.some((e) => e.structuredPolicy && policyFit(e, [t]).declares.length);
    if (!declared) out.push(`${t.label}: no candidate entry with labelled policies declares it.`);
    return out;
  });
}

/** Notes for asked (non-policy) constraints that no candidate entry meets. */
function unmetNotes(ranked: ShortlistEntryView[], topics: PolicyTopic[]): string[] {
  const met = new Set(ranked.flatMap((v) => v.matched));
  const policy = new Set(topics.map((t) => t.label));
  const asked = ranked.flatMap((v) => [...v.unmatched, ...v.unknown]);
  const unmet = new Set(asked.filter((l) => !met.has(l)));
  return [...unmet]
    .filter((label) => !policy.has(label))
    .map((label) => `${label}: no candidate entry in the catalogue states it.`);
}

/** Renders one entry as numbered plain-text lines. */
function renderEntry(v: ShortlistEntryView, i: number, topics: PolicyTopic[]): string[] {
  const why = [
    v.matched.length > 0 ? `fits: ${v.matched.join(', ')}` : '',
    v.unmatched.length > 0 ? `does not fit: ${v.unmatched.join(', ')}` : '',
    v.unknown.length > 0 ? `not recorded in the catalogue: ${v.unknown.join(', ')}` : '',
  ].filter(Boolean);
  const reason = why.join('; ') || 'listed by how well known it is';
  const licence = v.license ? ` (${v.license})` : '';
  // A hyphen, not an em dash: one character above U+00FF makes V8 hold the whole answer, and every
  // JSON text built from it (the stored row, the reply), at two bytes per character (issue #14).
  const lines = [`${i + 1}. ${v.name} [${v.id}] - ${reason}`];
  lines.push(`   ${OPENNESS_LABELS[v.openness]}${licence} · ${READINESS_LABELS[v.readiness]}`);
  const links = [...new Set([v.homepage, v.repository].filter(Boolean))];
  if (links.length > 0) lines.push(`   ${links.join(' · ')}`);
  if (v.installCommand) lines.push(`   Install: ${v.installCommand}`);
  if (v.policyFit) {
    const { declares, doesNotDeclare } = v.policyFit;
    const said = [
      declares.length > 0 ? `Declares: ${declares.join(', ')}` : '',
      doesNotDeclare.length > 0 ? `Does not declare: ${doesNotDeclare.join(', ')}` : '',
    ];
    lines.push(`   ${said.filter(Boolean).join('; ')}`);
  } else if (topics.length > 0) {
    const asked = topics.map((t) => t.label).join(', ');
    lines.push(`   Policies not labelled in the catalogue: cannot say (${asked})`);
  }
  return lines;
}

/**
 * Answers "which coding harness fits me?" from the shipped Hub catalogue (pure domain logic, no
 * I/O per request). Only runnable third-party entries are ranked, by constraints met, then how
 * well known they are (lower popularityRank first), then name; readiness is shown, never scored.
 * SuperQode's own entries are listed apart unless asked for or no third-party entry exists.
 * @see shortlist-fit.ts for the scoring rules.
 */
@Injectable()
export class ShortlistService {
  /** Answers by constraints: the catalogue is fixed, so equal constraints give equal answers. */
  private readonly answers = new LRUCache<string, ShortlistAnswer>({ max: ANSWER_CACHE_SIZE });

  constructor(private readonly catalogue: CatalogueService) {}

  /** Every catalogue entry, in file order (names for the phrase match). */
  catalogueEntries(): readonly CatalogueEntry[] {
    return this.catalogue.entries();
  }

  /**
   * Builds the shortlist for one request.
   * @param text - The user's request in free text.
   * @param constraints - Already-read constraints (seam for a model-based reader); defaults to
   *   `parseConstraints(text)`.
   * @returns Up to {@link SHORTLIST_SIZE} entries meeting at least one asked constraint, best
   *   first; when nothing was asked or nothing meets it, the best-known entries, with a note.
   */
  answer(
    text: string,
    constraints: ShortlistConstraints = parseConstraints(text),
  ): ShortlistAnswer {
    const key = JSON.stringify(constraints);
    const cached = this.answers.get(key);
    if (cached) return cached;
    const fresh = this.compute(constraints);
    this.answers.set(key, fresh);
    return fresh;
  }

  private compute(constraints: ShortlistConstraints): ShortlistAnswer {
    const c = constraints;
    const topics = askedTopics(c);
    const { pool, heldBack, notes } = select(this.catalogue.entries(), c);
    const ranked = rankEntries(pool, c);
    const fitting = ranked.filter((v) => v.score > 0);
    if (!askedAnything(c)) {
      notes.push('No constraints recognised; entries are ordered by how well known they are.');
    } else if (fitting.length === 0) {
      notes.push('No candidate meets what was asked; the best-known entries are shown instead.');
    }
    const entries = (fitting.length > 0 ? fitting : ranked).slice(0, SHORTLIST_SIZE);
    notes.push(...unmetNotes(ranked, topics), ...policyNotes(pool, topics));
    const supplied = heldBack.map((e) => toView(e, c));
    const catalogueVersion = this.catalogue.version();
    const answerText = this.render(c, entries, supplied, notes, topics);
    return { text: answerText, entries, supplied, constraints: c, notes, catalogueVersion };
  }

  private render(
    c: ShortlistConstraints,
    entries: ShortlistEntryView[],
    supplied: ShortlistEntryView[],
    notes: string[],
    topics: PolicyTopic[],
  ): string {
    const head =
      c.understood.length > 0
        ? `Shortlist for: ${c.understood.join(', ')}`
        : 'Shortlist (no constraints recognised)';
    const parts = [head, '', ...entries.flatMap((v, i) => renderEntry(v, i, topics))];
    if (notes.length > 0) parts.push('', 'Notes:', ...notes.map((n) => `- ${n}`));
    if (supplied.length > 0) {
      parts.push('', `${SUPPLIED_DISCLOSURE}: ${supplied.map((v) => v.name).join(', ')}.`);
    }
    const version = this.catalogue.version();
    parts.push('', `Source: SuperQode Hub catalogue, schema ${version}. ${NOT_A_MEASUREMENT}`);
    return parts.join('\n');
  }
}
