#!/usr/bin/env node
// Regenerates the "Errors by class" table of README.md from the error map
// (src/common/errors/error-map.ts) rendered by the real binding renderers in dist/. Run after
// `npx tsc -p tsconfig.build.json`; src/common/errors/error-map.spec.ts fails until they match.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { withErrorsTable } = require(join(root, 'dist/common/errors/errors-table.js'));
const readme = join(root, 'README.md');
writeFileSync(readme, withErrorsTable(readFileSync(readme, 'utf8')));
process.stdout.write('README.md errors table regenerated\n');
