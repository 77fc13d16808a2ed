#!/usr/bin/env node
/**
 * Builds data/hub-catalogue.json, the catalogue the harness-shortlist skill ships with.
 *
 * Usage: node scripts/build-hub-catalogue.mjs [facts.json]
 *   facts.json defaults to ../shared/data/hub-catalogue-facts.json relative to the repo root.
 *
 * Input: the Hub facts file (`items`, snake_case, schema 1.5 snapshot) plus its
 * `later_code_deltas_schema_1_7.record_changes`. Output: camelCase entries validated at boot by
 * src/modules/shortlist/catalogue.schema.ts. The output is deterministic (no wall-clock time):
 * `generatedAt` is the snapshot's own timestamp, so re-running on the same facts is a no-op.
 *
 * Delta policy: a record change is applied when it targets a record present in the snapshot
 * (or is an explicit "added" record) and only touches fields the catalogue carries. Skipped
 * changes are listed in `source.deltasSkipped` with the reason.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const factsPath = path.resolve(
  process.argv[2] ?? path.resolve(repoRoot, '../shared/data/hub-catalogue-facts.json'),
);
const outPath = path.resolve(repoRoot, 'data/hub-catalogue.json');

/** Snake-case delta keys the catalogue carries, mapped to their camelCase entry field. */
const DELTA_FIELDS = {
  name: 'name',
  homepage: 'homepage',
  repository: 'repository',
  openness: 'openness',
  license: 'license',
  docs_url: 'docsUrl',
  install_command: 'installCommand',
  popularity_rank: 'popularityRank',
  readiness: 'readiness',
};

/** Short factual description from category/integration level only (the facts carry no prose). */
const DESCRIPTIONS = {
  native: 'Harness supplied by SuperQode.',
  preset: 'Model and task preset supplied by SuperQode.',
  managed: 'Coding agent reached through a managed SuperQode connection.',
  protocol: 'Coding agent reached over the Agent Client Protocol (ACP).',
  optional: 'Optional harness integration; needs its own package or server.',
  ecosystem: 'Ecosystem-watch project; no SuperQode integration yet.',
};

const SUPPLIED_LEVELS = new Set(['native', 'preset']);
const POLICY_LABEL = /^\s*(sandbox|approvals|approval|mcp|streaming|shell|bash|local|ollama)\s*:/i;

function toEntry(item) {
  return {
    id: item.id,
    name: item.name,
    description: DESCRIPTIONS[item.integration_level] ?? '',
    category: item.category,
    kind: item.kind,
    integrationLevel: item.integration_level,
    readiness: item.readiness,
    openness: item.openness,
    license: item.license,
    homepage: item.homepage,
    repository: item.repository,
    docsUrl: item.docs_url,
    installCommand: item.install_command,
    setupSteps: [],
    policies: [...item.policies],
    capabilities: [...item.capabilities],
    tools: [...item.tools],
    aliases: [...item.aliases],
    popularityRank: item.popularity_rank,
    superqodeSupplied: item.superqode_supplied,
    runnable: item.runnable_for_shortlist,
    structuredPolicy: item.structured_policy,
    runtime: item.runtime,
    interface: item.interface,
  };
}

/** Recomputes the derived flags with the rules stated in the facts' `about.derived_fields`. */
function derive(entry) {
  entry.superqodeSupplied = SUPPLIED_LEVELS.has(entry.integrationLevel);
  entry.runnable = entry.readiness !== 'not-supported';
  entry.structuredPolicy = entry.policies.some((p) => POLICY_LABEL.test(p));
  return entry;
}

/** A new ecosystem-watch record from an "added" delta; unknown fields stay empty. */
function addedEntry(change) {
  const entry = toEntry({
    id: change.id,
    name: change.name,
    category: 'Ecosystem watch',
    kind: 'ecosystem',
    integration_level: 'ecosystem',
    readiness: change.readiness,
    openness: change.openness ?? '',
    license: change.license ?? '',
    homepage: change.homepage ?? '',
    repository: change.repository ?? '',
    docs_url: '',
    install_command: '',
    policies: [],
    capabilities: [],
    tools: [],
    aliases: [],
    popularity_rank: change.popularity_rank,
    runtime: 'external',
    interface: '',
    superqode_supplied: false,
    runnable_for_shortlist: false,
    structured_policy: false,
  });
  return derive(entry);
}

function applyDeltas(entries, changes) {
  const applied = [];
  const skipped = [];
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (const change of changes) {
    if (change.change === 'added' && change.id.startsWith('ecosystem:') && !byId.has(change.id)) {
      const entry = addedEntry(change);
      entries.push(entry);
      byId.set(entry.id, entry);
      applied.push({ id: change.id, change: change.change });
      continue;
    }
    const target = byId.get(change.id);
    if (!target) {
      skipped.push({
        id: change.id,
        change: change.change,
        reason: 'no such record in the snapshot',
      });
      continue;
    }
    const fields = Object.keys(change).filter((k) => k !== 'id' && k !== 'change');
    const unknown = fields.filter((k) => !(k in DELTA_FIELDS) && k !== 'last_verified');
    if (unknown.length > 0) {
      const reason = `touches fields the catalogue does not carry: ${unknown.join(', ')}`;
      skipped.push({ id: change.id, change: change.change, reason });
      continue;
    }
    for (const k of fields) if (k in DELTA_FIELDS) target[DELTA_FIELDS[k]] = change[k];
    derive(target);
    applied.push({ id: change.id, change: change.change });
  }
  return { applied, skipped };
}

function build(facts) {
  const entries = facts.items.map((item) => derive(toEntry(item)));
  const mismatched = facts.items.filter((item, i) => {
    const e = entries[i];
    return (
      e.superqodeSupplied !== item.superqode_supplied ||
      e.runnable !== item.runnable_for_shortlist ||
      e.structuredPolicy !== item.structured_policy
    );
  });
  if (mismatched.length > 0) {
    throw new Error(
      `derived flags disagree with the facts for: ${mismatched.map((m) => m.id).join(', ')}`,
    );
  }
  const deltas = facts.later_code_deltas_schema_1_7;
  const { applied, skipped } = applyDeltas(entries, deltas?.record_changes ?? []);
  const snap = facts.about.snapshot;
  return {
    schemaVersion: snap.schema_version,
    generatedAt: snap.generated_at,
    source: {
      repository: facts.about.source_repo,
      file: facts.about.source_file,
      indexCommit: snap.index_commit,
      deltasFrom: deltas?.source ?? '',
      deltasApplied: applied,
      deltasSkipped: skipped,
    },
    entries,
  };
}

const facts = JSON.parse(readFileSync(factsPath, 'utf8'));
const catalogue = build(facts);
mkdirSync(path.dirname(outPath), { recursive: true });
writeFileSync(outPath, `${JSON.stringify(catalogue, null, 2)}\n`);
process.stdout.write(
  `wrote ${path.relative(repoRoot, outPath)}: ${catalogue.entries.length} entries, ` +
    `${catalogue.source.deltasApplied.length} deltas applied, ${catalogue.source.deltasSkipped.length} skipped\n`,
);
