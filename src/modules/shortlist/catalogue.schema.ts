import { z } from 'zod';

/** Openness values of the Hub; `''` means the project publishes none ("Not published"). */
export const OPENNESS_VALUES = ['open', 'source-available', 'closed', ''] as const;

/** Readiness values; derived by the Hub from the integration level, never used to rank. */
export const READINESS_VALUES = ['ready', 'setup-required', 'not-supported'] as const;

/** How SuperQode reaches an entry; `native` and `preset` are supplied by SuperQode itself. */
export const INTEGRATION_LEVELS = [
  'native',
  'preset',
  'managed',
  'protocol',
  'optional',
  'ecosystem',
] as const;

/**
 * One Hub catalogue record (camelCase). Unknown keys are rejected.
 * - `popularityRank`: lower means better known (Codex 10, Claude 20, Cursor 30); 500 and 700
 *   are the Hub's "unranked" placeholders.
 * - `superqodeSupplied`: integration level native or preset; held back from ranking.
 * - `runnable`: readiness is not `not-supported` (ecosystem-watch entries are never ranked).
 * - `structuredPolicy`: `policies` carry labelled values (`Sandbox: local`, `Shell: allowed`…);
 *   only these entries can be said to declare or not declare a capability.
 * @see data/hub-catalogue.json, built by scripts/build-hub-catalogue.mjs.
 */
export const catalogueEntrySchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string(),
  category: z.string().min(1),
  kind: z.string().min(1),
  integrationLevel: z.enum(INTEGRATION_LEVELS),
  readiness: z.enum(READINESS_VALUES),
  openness: z.enum(OPENNESS_VALUES),
  license: z.string(),
  homepage: z.string(),
  repository: z.string(),
  docsUrl: z.string(),
  installCommand: z.string(),
  setupSteps: z.array(z.string()),
  policies: z.array(z.string()),
  capabilities: z.array(z.string()),
  tools: z.array(z.string()),
  aliases: z.array(z.string()),
  popularityRank: z.number().int().nonnegative(),
  superqodeSupplied: z.boolean(),
  runnable: z.boolean(),
  structuredPolicy: z.boolean(),
  language: z.string().optional(),
  runtime: z.string(),
  interface: z.string(),
});

const deltaRecordSchema = z.strictObject({
  id: z.string().min(1),
  change: z.string(),
  reason: z.string().optional(),
});

/**
 * The whole catalogue file: schema version of the Hub snapshot, its timestamp (ISO 8601), where
 * it came from (including which later record changes were applied or skipped) and the entries.
 * Entry ids must be unique.
 */
export const catalogueSchema = z
  .strictObject({
    schemaVersion: z.string().min(1),
    generatedAt: z.string().min(1),
    source: z.strictObject({
      repository: z.string(),
      file: z.string(),
      indexCommit: z.string(),
      deltasFrom: z.string(),
      deltasApplied: z.array(deltaRecordSchema),
      deltasSkipped: z.array(deltaRecordSchema),
    }),
    entries: z.array(catalogueEntrySchema),
  })
  .superRefine((catalogue, ctx) => {
    const seen = new Set<string>();
    catalogue.entries.forEach((entry, i) => {
      if (seen.has(entry.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['entries', i, 'id'],
          message: `expected a unique id, "${entry.id}" appears more than once`,
        });
      }
      seen.add(entry.id);
    });
  });

/** One validated catalogue record; see {@link catalogueEntrySchema} for field meanings. */
export type CatalogueEntry = z.infer<typeof catalogueEntrySchema>;

/** The validated catalogue file; see {@link catalogueSchema}. */
export type Catalogue = z.infer<typeof catalogueSchema>;
