#!/usr/bin/env node
// `npm run card:export`: rewrites examples/a2a/agent-card.json with the card of the default
// configuration, as test/e2e/agent-card-publication.e2e.ts exports it: `serve a2a
// --export-agent-card` run with PATH as its only environment variable, so the developer's own
// SUPERQODE_A2A_* settings (a harness model, a public URL, a token) never reach the tracked file.
// Run after a build (the npm script builds first).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'examples/a2a/agent-card.json');
const r = spawnSync(
  process.execPath,
  [join(root, 'dist/cli.js'), 'serve', 'a2a', '--export-agent-card', out],
  { cwd: root, stdio: 'inherit', env: { PATH: process.env.PATH ?? '' } },
);
process.exit(r.status ?? 1);
